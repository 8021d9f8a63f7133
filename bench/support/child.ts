/** Runs a bench script of some checkout as a child process and returns the JSON report it prints last. */
import { spawn } from 'node:child_process';
import path from 'node:path';

export async function runBenchScript<T>(root: string, script: string, env: Record<string, string>): Promise<T> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, script)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`${script} in ${root} exited with ${code}`);
  const start = out.indexOf('{\n');
  if (start < 0) throw new Error(`${script} in ${root} printed no JSON report`);
  return JSON.parse(out.slice(start)) as T;
}
