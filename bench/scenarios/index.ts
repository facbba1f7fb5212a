/** The scenarios `all` runs, in order (the long engine run last). */
import type { Scenario } from '../scenario';
import { alertsScenario } from './alerts';
import { apiScenario } from './api';
import { engineScenario } from './engine';
import { floorScenario } from './floor';
import { heartbeatsScenario } from './heartbeats';
import { startupScenario } from './startup';
import { storageScenario } from './storage';
import { streamScenario } from './stream';
import { writerScenario } from './writer';

export const SCENARIOS: readonly Scenario[] = [writerScenario, apiScenario, heartbeatsScenario, startupScenario, storageScenario, streamScenario, alertsScenario, engineScenario];

/** Run only when named: reference figures for reading the others, not targets. */
export const EXTRA_SCENARIOS: readonly Scenario[] = [floorScenario];
