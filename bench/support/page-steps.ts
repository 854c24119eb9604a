/**
 * Steps timed in the page, for the screens benchmark. An init script counts the app's calls to the core
 * (the browser shell's POSTs, from the request until its answer is read) and records long tasks
 * (PerformanceObserver 'longtask') from the page's start. A step is something done in the page (as text:
 * tsx names functions with a helper the page does not have) and a condition on what it shows; it is done
 * in the first frame in which the condition holds and no call is in flight (and, for a step that must ask
 * the core, one was made since). Its long tasks are those that began from the action until the page is
 * quiet again (no call in flight and none answered for QUIET_MS), so that drawing after the content (charts)
 * counts too.
 */
import { writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

/** How long the page must stay without calls to the core after a step before its long tasks are read. */
const QUIET_MS = 300;
/** The longest a step may take before the benchmark gives up on it. */
const STEP_TIMEOUT_MS = 60_000;

export const INSTRUMENT = `(() => {
  const bench = (window.__bench = { inflight: 0, started: 0, answered: 0, lastAnswer: 0, tasks: [], calls: [] });
  const original = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    if (!init || init.method !== 'POST') return original(input, init);
    const began = performance.now();
    const method = String(input).split('/').pop();
    bench.inflight++;
    bench.started++;
    const settle = () => {
      bench.inflight--;
      bench.answered++;
      bench.lastAnswer = performance.now();
      bench.calls.push({ method, began, ms: bench.lastAnswer - began });
    };
    let res;
    try {
      res = await original(input, init);
    } catch (e) {
      settle();
      throw e;
    }
    const json = res.json.bind(res);
    res.json = () => json().finally(settle);
    return res;
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) bench.tasks.push({ start: e.startTime, ms: e.duration });
  }).observe({ type: 'longtask', buffered: true });
})()`;

/**
 * Waits until `condition` (a JavaScript expression) holds in the page, looked at every frame. (Playwright's
 * waitForFunction evaluates text with eval, which the app's content security policy forbids.)
 */
export function waitInPage(page: Page, condition: string): Promise<void> {
  return page.evaluate<void>(`new Promise((resolve, reject) => {
    const deadline = performance.now() + ${STEP_TIMEOUT_MS};
    const look = () => {
      if (${condition}) resolve();
      else if (performance.now() > deadline) reject(new Error(${JSON.stringify(`Never came: ${condition}`)}));
      else requestAnimationFrame(look);
    };
    look();
  })`);
}

/** The page is quiet: no call to the core in flight, and none answered for QUIET_MS. */
export const QUIET = `window.__bench.inflight === 0 && performance.now() - window.__bench.lastAnswer > ${QUIET_MS}`;

export interface Step {
  /** What the step is, as the table names it. */
  name: string;
  /** JavaScript run in the page that starts the step (an expression or statements; may await). */
  act: string;
  /** A JavaScript expression true once the step's result is on the screen. */
  done: string;
  /** Whether the step must ask the core something before it is done (a search typed into a field: after its pause). */
  asks?: boolean;
}

export interface StepResult {
  name: string;
  ms: number;
  longest: number;
  over50: number;
  /** The slowest call to the core the step made, in ms (what the core and the shell took, as the page waited). */
  slowestCall: number;
  slowestMethod: string;
}

/** A CPU profile of the page from now until `stop`, written as a .cpuprofile (Chromium's DevTools open it) to `file`. */
export async function profilePage(page: Page, file: string): Promise<{ stop(): Promise<void> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return {
    async stop() {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      await cdp.detach();
    },
  };
}

/** Does the step and times it; with `profile`, a CPU profile of the page meanwhile is written to that file. */
export async function runStep(page: Page, step: Step, profile?: string): Promise<StepResult> {
  const profiling = profile === undefined ? null : await profilePage(page, profile);
  const measured = await page.evaluate<{ ms: number; from: number }>(`(async () => {
    const bench = window.__bench;
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const startedBefore = bench.started;
    const from = performance.now();
    await (async () => { ${step.act}; })();
    const deadline = from + ${STEP_TIMEOUT_MS};
    for (;;) {
      const asked = !${step.asks ?? false} || bench.started > startedBefore;
      if (asked && bench.inflight === 0 && (${step.done})) return { ms: performance.now() - from, from };
      if (performance.now() > deadline) {
        const h1 = document.querySelector('main h1');
        const state = { at: location.hash, inflight: bench.inflight, asked, heading: h1?.textContent, headingMarked: h1?.dataset.benchOld === '1' };
        throw new Error(${JSON.stringify(`"${step.name}" did not finish within a minute: `)} + JSON.stringify(state));
      }
      await frame();
    }
  })()`);
  await waitInPage(page, QUIET);
  await profiling?.stop();
  // Let the observer hand over what it saw last, then read this step's tasks and calls.
  await page.evaluate('new Promise((r) => setTimeout(r, 0))');
  const seen = await page.evaluate<{ tasks: number[]; calls: { method: string; ms: number }[] }>(`(() => {
    const b = window.__bench;
    return {
      tasks: b.tasks.filter((t) => t.start + t.ms >= ${measured.from}).map((t) => t.ms),
      calls: b.calls.filter((c) => c.began >= ${measured.from}),
    };
  })()`);
  const slowest = seen.calls.reduce((a, c) => (c.ms > a.ms ? c : a), { method: '', ms: 0 });
  return {
    name: step.name,
    ms: measured.ms,
    longest: Math.max(0, ...seen.tasks),
    over50: seen.tasks.filter((t) => t > 50).length,
    slowestCall: slowest.ms,
    slowestMethod: slowest.method,
  };
}
