/** Running the service under --cpu-prof for a scenario, and turning the profile into notes. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatProfile, newestProfile, ProfileWindow, summariseProfile } from './profile';
import type { RunContext } from './scenario';

/** A fresh dir for this scenario's profile, or undefined when profiling is off. */
export function profileDir(ctx: RunContext, scenario: string): string | undefined {
  if (!ctx.profile) return undefined;
  const dir = path.join(ctx.resultsDir, 'profiles', `${scenario}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * After the profiled service stopped: the summary as note lines (empty when there is no profile),
 * restricted to the measured window when one is given.
 */
export function profileNotes(dir: string | undefined, window?: ProfileWindow, whose = 'the service'): string[] {
  if (!dir) return [];
  const file = newestProfile(dir);
  if (!file) return [`no CPU profile was written in ${dir}`];
  const scope = window ? 'the measured window only' : 'the whole run';
  return [
    `CPU profile of ${whose} (${scope}): ${file}`,
    ...formatProfile(summariseProfile(file, 15, window)).split('\n'),
  ];
}
