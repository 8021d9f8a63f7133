/**
 * What every operator command shares: a usage error (exit code 2, one line, like commander's own
 * argument errors) and an example under each command's --help.
 */
import type { Command } from 'commander';

/** A refused argument: main.ts prints the message on one line and exits with code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** One example per command path (the words after `svc`), shown after that command's --help. */
export const OPERATOR_EXAMPLES: Record<string, string> = {
  serve: 'PORT=8080 svc serve',
  worker: 'KAFKA_BROKERS=kafka:9092 DATABASE_URL=postgres://… svc worker --agents sanctions,pep',
  'config check': 'DATABASE_URL=postgres://svc@db/svc svc config check',
  'accounts create': "svc accounts create --name 'Acme Bank' --email ops@acme.test --password 'a-long-password' --plan enterprise --json",
  'projections rebuild': 'svc projections rebuild screenings',
  screen: 'svc screen "Vladimir Putin" --dob 1952 --country RU',
  compare: 'svc compare --file pairs.csv --out scored.csv',
  'lists status': 'svc lists status --json',
  'lists update': 'svc lists update --list ofac_sdn,un_sc',
  'audit verify': 'svc audit verify --json',
  'audit reproduce': 'svc audit reproduce 1042',
  'monitoring run': 'svc lists update && svc monitoring run --json',
  replay: 'svc replay --to 2026-11-01T12:00:00Z --json',
  'deadletters list': 'svc deadletters list --json',
  'deadletters replay': 'svc deadletters replay 0:17 0:18',
};

function pathOf(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c && c.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Adds `Example:` after the help of every command (at any depth) that has one in `examples`. */
export function addExamples(program: Command, examples: Record<string, string>): void {
  const visit = (command: Command) => {
    const example = examples[pathOf(command)];
    if (example) command.addHelpText('after', `\nExample:\n  $ ${example}\n`);
    for (const sub of command.commands) visit(sub);
  };
  for (const sub of program.commands) visit(sub);
}

/** Every command path (for tests: each leaf command must have an example). */
export function commandPaths(program: Command): string[] {
  const out: string[] = [];
  const visit = (command: Command) => {
    if (command.commands.length === 0) out.push(pathOf(command));
    for (const sub of command.commands) visit(sub);
  };
  for (const sub of program.commands) visit(sub);
  return out;
}
