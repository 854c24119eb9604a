#!/usr/bin/env node
/**
 * `npm start`: builds the app and opens it in Electron. Where Electron's binary is missing it tries to
 * fetch it; better-sqlite3 needs a build for Electron's ABI beside the Node build the tests use, kept in
 * .electron-native/ and handed to the app through BOOKKEEPING_SQLITE_BINDING. Where either cannot be had
 * (no network to Electron's or better-sqlite3's downloads), it says so in one line and starts the
 * browser shell instead. Every child gets this process's environment without the app's secrets
 * (src-main/app-bridge/child-env.ts).
 */
import { spawnSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { childEnv } = await tsImport('../src-main/app-bridge/child-env.ts', import.meta.url);
const bin = (name) => join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
const quiet = { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], shell: process.platform === 'win32' };

function run(cmd, args, opts = {}) {
  return spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32', env: childEnv(), ...opts });
}

function electronBinary() {
  const dir = join(root, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const exe = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(exe) ? exe : null;
}

function fetchElectron() {
  const env = childEnv();
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const r = spawnSync(process.execPath, [join(root, 'node_modules', 'electron', 'install.js')], { ...quiet, env, timeout: 300_000 });
  return r.status === 0 ? electronBinary() : null;
}

/** better-sqlite3 built for this Electron, side by side with the Node build in node_modules. */
function electronSqliteBinding(electronVersion) {
  const target = join(root, '.electron-native', `electron-${electronVersion}-${process.platform}-${process.arch}`, 'better_sqlite3.node');
  if (existsSync(target)) return target;
  const work = join(root, '.electron-native', 'work');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const pkg = dirname(require.resolve('better-sqlite3/package.json'));
  const skip = join(pkg, 'build');
  cpSync(pkg, work, { recursive: true, filter: (src) => !src.startsWith(skip) });
  const electronArgs = ['--runtime', 'electron', '--target', electronVersion, '--arch', process.arch, '--platform', process.platform];
  let ok = run(bin('prebuild-install'), electronArgs, { ...quiet, cwd: work, timeout: 300_000 }).status === 0;
  if (!ok) {
    ok =
      run(
        bin('node-gyp'),
        ['rebuild', '--release', `--target=${electronVersion}`, `--arch=${process.arch}`, '--dist-url=https://electronjs.org/headers'],
        { ...quiet, cwd: work, timeout: 900_000 },
      ).status === 0;
  }
  const built = join(work, 'build', 'Release', 'better_sqlite3.node');
  if (!ok || !existsSync(built)) return null;
  mkdirSync(dirname(target), { recursive: true });
  cpSync(built, target);
  rmSync(work, { recursive: true, force: true });
  return target;
}

function startBrowserShell(reason) {
  console.log(`Electron cannot start on this machine (${reason}); starting the browser shell instead.`);
  const child = run(bin('tsx'), [join(root, 'src-main', 'web-shell', 'main.ts'), ...process.argv.slice(2)]);
  process.exit(child.status ?? 1);
}

if (run(bin('electron-vite'), ['build'], { ...quiet, stdio: ['ignore', 'ignore', 'inherit'] }).status !== 0) {
  console.error('The build failed; see the errors above.');
  process.exit(1);
}

const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
const electron = electronBinary() ?? fetchElectron();
if (!electron) startBrowserShell(`its binary ${electronVersion} could not be downloaded`);
const binding = electronSqliteBinding(electronVersion);
if (!binding) startBrowserShell(`better-sqlite3 could not be built for Electron ${electronVersion}`);

const app = spawn(electron, [root, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: childEnv(process.env, { BOOKKEEPING_SQLITE_BINDING: binding }),
});
app.on('exit', (code) => process.exit(code ?? 0));
