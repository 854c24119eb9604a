/**
 * The local copy's SQL lives in its store (src-main/core/store): repositories per table hand out records and
 * take values, so a schema change is made in one folder and the compiler finds every caller. A call on a
 * better-sqlite3 database or statement anywhere else is SQL outside the store. Type-aware: the callee's
 * object is looked at by its type, whatever it is named.
 */
const SQLITE_TYPES = new Set(['Database', 'Statement']);

function isSqliteType(type) {
  if (!type) return false;
  if (type.isUnion?.()) return type.types.some(isSqliteType);
  const symbol = type.getSymbol?.() ?? type.aliasSymbol;
  if (!symbol || !SQLITE_TYPES.has(symbol.getName())) return false;
  return (symbol.getDeclarations?.() ?? []).some((d) => /better-sqlite3/.test(d.getSourceFile().fileName));
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'SQL of the local copy only inside its store folder' },
    schema: [],
    messages: { sql: 'SQL outside the store: add a method to a repository in src-main/core/store instead.' },
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    if (!services?.program) return {};
    return {
      'CallExpression > MemberExpression.callee'(node) {
        const type = services.getTypeAtLocation(node.object);
        if (isSqliteType(type)) context.report({ node, messageId: 'sql' });
      },
    };
  },
};
