/**
 * The local copy's SQL lives in its store (src-main/core/store): repositories per table hand out records and
 * take values, so that a schema change is made in one folder and the compiler finds every caller. Outside it,
 * this rule refuses what SQL would need: a call on a better-sqlite3 database or statement (found by its type,
 * whatever the variable is named), the store's raw `db` and `sql()`, and SQL text itself.
 */
const SQLITE_TYPES = new Set(['Database', 'Statement']);
const STORE_RAW = new Set(['db', 'sql']);
/** SQL as this project writes it: keywords in capitals. */
const SQL_TEXT =
  /\b(SELECT\b[\s\S]*\bFROM|INSERT INTO|UPDATE \w+ SET|DELETE FROM|PRAGMA \w|VACUUM\b|ATTACH DATABASE|CREATE (TABLE|INDEX|TRIGGER))\b/;

function declaredIn(type, names, file) {
  if (!type) return false;
  if (type.isUnion?.()) return type.types.some((t) => declaredIn(t, names, file));
  const symbol = type.getSymbol?.() ?? type.aliasSymbol;
  if (!symbol || !names.has(symbol.getName())) return false;
  return (symbol.getDeclarations?.() ?? []).some((d) => file.test(d.getSourceFile().fileName));
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'SQL of the local copy only inside its store folder' },
    schema: [],
    messages: {
      sqlite: 'A better-sqlite3 call outside the store: add a method to a repository in src-main/core/store instead.',
      raw: "The store's raw `{{name}}` outside the store: add a method to a repository in src-main/core/store instead.",
      text: 'SQL text outside the store: add a method to a repository in src-main/core/store instead.',
    },
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    const text = (node, value) => {
      if (SQL_TEXT.test(value)) context.report({ node, messageId: 'text' });
    };
    const listeners = {
      Literal(node) {
        if (typeof node.value === 'string') text(node, node.value);
      },
      TemplateLiteral(node) {
        text(node, node.quasis.map((q) => q.value.cooked ?? '').join(' '));
      },
    };
    if (!services?.program) return listeners;
    return {
      ...listeners,
      'CallExpression > MemberExpression.callee'(node) {
        if (declaredIn(services.getTypeAtLocation(node.object), SQLITE_TYPES, /better-sqlite3/)) {
          context.report({ node, messageId: 'sqlite' });
        }
      },
      MemberExpression(node) {
        if (node.computed || !STORE_RAW.has(node.property.name)) return;
        if (declaredIn(services.getTypeAtLocation(node.object), new Set(['Store']), /core\/store\/store\.ts$/)) {
          context.report({ node, messageId: 'raw', data: { name: node.property.name } });
        }
      },
    };
  },
};
