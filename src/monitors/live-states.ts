/**
 * The check engine's current view of each monitor's state, fresher than the database (state rows
 * are written with the next batch of results). Answers read it first and fall back to the row.
 */
import { Injectable } from '@nestjs/common';
import type { StateRow } from './monitor-state';

@Injectable()
export class LiveStates {
  private readonly states = new Map<number, StateRow>();

  get size(): number {
    return this.states.size;
  }

  get(id: number): StateRow | undefined {
    return this.states.get(id);
  }

  set(row: StateRow): void {
    this.states.set(row.monitor_id, row);
  }

  delete(id: number): void {
    this.states.delete(id);
  }
}
