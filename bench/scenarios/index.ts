/** The scenarios `all` runs, in order (the long engine run last). */
import type { Scenario } from '../scenario';
import { alertsScenario } from './alerts';
import { compareScenario } from './compare';
import { apiScenario } from './api';
import { engineScenario } from './engine';
import { floorScenario } from './floor';
import { heartbeatsScenario } from './heartbeats';
import { locationsScenario } from './locations';
import { metricsScenario } from './metrics';
import { startupScenario } from './startup';
import { storageScenario } from './storage';
import { streamScenario } from './stream';
import { writerScenario } from './writer';
import { dashboardScenario } from '../dashboard';

export const SCENARIOS: readonly Scenario[] = [
  writerScenario,
  apiScenario,
  heartbeatsScenario,
  startupScenario,
  storageScenario,
  streamScenario,
  metricsScenario,
  alertsScenario,
  engineScenario,
];

/**
 * Runs `all` adds after SCENARIOS, each with options of its own unless given on the command line:
 * the engine again with 200 monitors, the size of a small box, for its bytes written per check.
 */
export const EXTRA_RUNS: readonly { scenario: Scenario; options: Record<string, string> }[] = [
  { scenario: engineScenario, options: { monitors: '200' } },
];

/**
 * Run only when named: `floor` (reference figures for reading the others, not targets),
 * `dashboard` (drives Debian's Chromium, which the other scenarios do not need), `compare`
 * (this build against another, side by side) and `locations` (a service and 3 agent processes).
 */
export const EXTRA_SCENARIOS: readonly Scenario[] = [
  floorScenario,
  dashboardScenario,
  compareScenario,
  locationsScenario,
];
