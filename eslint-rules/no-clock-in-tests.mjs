/**
 * A test checks behaviour, a benchmark checks speed: a test that reads the clock either bounds a time (it
 * fails on a busy machine and proves nothing on a quiet one) or seeds randomness that no run can repeat.
 * Times go to `npm run bench`; a seed is fixed by default and printed; "now" comes from the code's own
 * injected clock, or `new Date()` where any moment will do.
 */
const CLOCKS = new Set(['Date.now', 'performance.now', 'process.hrtime', 'process.hrtime.bigint', 'process.uptime']);

function calleeName(node) {
  const parts = [];
  let n = node;
  while (n?.type === 'MemberExpression' && !n.computed) {
    parts.unshift(n.property.name);
    n = n.object;
  }
  if (n?.type !== 'Identifier') return null;
  parts.unshift(n.name);
  return parts.join('.');
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'no clock read in a test: speed belongs in a benchmark, seeds are fixed' },
    schema: [],
    messages: {
      clock:
        '{{name}}() in a test: a time bound belongs in a benchmark (npm run bench), a seed is fixed by default, and a wait is for a condition (test/support/until.ts).',
    },
  },
  create(context) {
    return {
      CallExpression(node) {
        const name = calleeName(node.callee);
        if (name && CLOCKS.has(name)) context.report({ node, messageId: 'clock', data: { name } });
      },
    };
  },
};
