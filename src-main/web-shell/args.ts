/** Command-line arguments of `npm run web`, validated like any other input. */
import { isListenHost } from './security';

export interface WebShellArgs {
  port: number;
  host: string;
  dataFile: string | null;
  open: boolean;
  help: boolean;
}

export const WEB_USAGE = `Usage: npm run web [-- --port N] [--data <file.sqlite>] [--host 127.0.0.1] [--open]

Serves the app to a browser on this machine only, for where Electron cannot run.
  --port N       port to listen on (default: 0 = any free port)
  --data FILE    the local copy (default: the app's user-data folder)
  --host HOST    127.0.0.1 (default), ::1 or localhost; never another address
  --open         open the page in the default browser
Prints the address to open; it carries a key that changes every run.`;

export function parseWebShellArgs(argv: string[]): WebShellArgs {
  const args: WebShellArgs = { port: 0, host: '127.0.0.1', dataFile: null, open: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${a} needs a value.`);
      return v;
    };
    switch (a) {
      case '--port': {
        const v = value();
        if (!/^\d{1,5}$/.test(v) || Number(v) > 65535) throw new Error(`--port must be a number from 0 to 65535, not ${JSON.stringify(v)}.`);
        args.port = Number(v);
        break;
      }
      case '--host': {
        const v = value();
        if (!isListenHost(v)) throw new Error(`--host must be a loopback address (127.0.0.1, ::1 or localhost), not ${JSON.stringify(v)}.`);
        args.host = v;
        break;
      }
      case '--data':
        args.dataFile = value();
        break;
      case '--open':
        args.open = true;
        break;
      case '--help':
      case '-h':
        args.help = true;
        break;
      default:
        throw new Error(`Unknown argument ${JSON.stringify(a)}; see --help.`);
    }
  }
  return args;
}
