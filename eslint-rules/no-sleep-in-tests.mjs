/**
 * A test waits for a condition, never for a time: a fixed sleep is either too short on a busy machine (the
 * test flakes) or longer than needed on a quiet one. Waits go through test/support/until.ts (a condition
 * and a deadline); a delay that is the behaviour under test (a slow service) lives in test/support.
 */
const TIMERS = new Set(['setTimeout', 'setInterval']);

export default {
  meta: {
    type: 'problem',
    docs: { description: 'no fixed sleep in a test: wait for a condition with a deadline' },
    schema: [],
    messages: {
      sleep: 'A fixed sleep in a test: wait for the condition instead (until() in test/support/until.ts).',
      timersPromises: 'node:timers/promises in a test is a fixed sleep: wait for the condition instead (until() in test/support/until.ts).',
    },
  },
  create(context) {
    return {
      ImportDeclaration(node) {
        if (node.source.value === 'node:timers/promises' || node.source.value === 'timers/promises') {
          context.report({ node, messageId: 'timersPromises' });
        }
      },
      CallExpression(node) {
        const callee = node.callee;
        const name =
          callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' && !callee.computed ? callee.property.name : null;
        if (name && TIMERS.has(name)) context.report({ node, messageId: 'sleep' });
      },
    };
  },
};
