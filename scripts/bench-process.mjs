// What the benches share for measuring a child process: its wall time and peak RSS.
import { spawn } from 'node:child_process';

/**
 * Runs a command under /usr/bin/time (`-f PEAK_RSS_KB=%M`, GNU time).
 * @param {string} command the program
 * @param {string[]} args its arguments
 * @param {{ cwd: string, env?: Record<string, string> }} options the folder it runs in and variables added to this process's
 * @returns {Promise<{ stdout: string, stderr: string, seconds: number, rssKiB: number }>} its output, wall seconds and peak RSS (KiB)
 * @throws Error with the end of its stderr when it exits with another code than 0
 */
export function timed(command, args, { cwd, env = {} }) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', 'PEAK_RSS_KB=%M', command, ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const rssKiB = Number(/PEAK_RSS_KB=(\d+)/.exec(stderr)?.[1] ?? Number.NaN);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`));
      else resolve({ stdout, stderr, seconds, rssKiB });
    });
  });
}
