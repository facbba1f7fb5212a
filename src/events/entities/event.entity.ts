import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One line of the timeline (GET /events): state changes, configuration changes, sign-ins, ... */
@Entity('events')
export class EventEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('integer') at!: number;
  @Column('text') kind!: string;
  @Column('integer', { nullable: true }) monitor_id!: number | null;
  /** The incident the line belongs to (its timeline), if any. */
  @Column('integer', { nullable: true }) incident_id!: number | null;
  /** Who did it: `owner`, `key:<name>`, `system`. */
  @Column('text', { nullable: true }) actor!: string | null;
  @Column('text') text!: string;
  /** JSON with kind-specific details. */
  @Column('text', { nullable: true }) data!: string | null;
}
