/** The CPU the measured servers and PostgreSQL spend over a measured window, and per request. */
import { processTreeCpuSeconds, processesCpuSeconds } from './process-cpu';

export interface CpuTaken {
  /** The window's wall time. */
  seconds: number;
  /** The servers' CPU (all instances, all their threads) in cores over the window, and per request in microseconds; null where unknown. */
  serverCpu: number | null;
  serverCpuUsPerRequest: number | null;
  /** PostgreSQL's (the postmaster and every process under it) likewise; null where there is none. */
  databaseCpu: number | null;
  databaseCpuUsPerRequest: number | null;
}

export class CpuWindow {
  private readonly started = performance.now();
  private readonly server0: number | null;
  private readonly database0: number | null;

  constructor(
    private readonly serverPids: readonly number[],
    private readonly databasePid: number | undefined,
  ) {
    this.server0 = serverPids.length === 0 ? null : processesCpuSeconds(serverPids);
    this.database0 = processTreeCpuSeconds(databasePid);
  }

  /** The window ends now; `requests` were answered in it. */
  end(requests: number): CpuTaken {
    const seconds = (performance.now() - this.started) / 1000;
    const server1 = this.server0 === null ? null : processesCpuSeconds(this.serverPids);
    const database1 = this.database0 === null ? null : processTreeCpuSeconds(this.databasePid);
    const spent = (from: number | null, to: number | null) => (from === null || to === null ? null : to - from);
    const server = spent(this.server0, server1);
    const database = spent(this.database0, database1);
    const perRequest = (cpu: number | null) => (cpu === null || requests === 0 ? null : (cpu * 1e6) / requests);
    return {
      seconds,
      serverCpu: server === null ? null : server / seconds,
      serverCpuUsPerRequest: perRequest(server),
      databaseCpu: database === null ? null : database / seconds,
      databaseCpuUsPerRequest: perRequest(database),
    };
  }
}
