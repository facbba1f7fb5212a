import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type BlockReason = 'failures' | 'repeated';

/**
 * One block of a client address (an IPv6 client by its /64) after failed sign-in attempts.
 * Rows outlive the block for a day: the third block within a day lasts a day.
 */
@Entity('address_blocks')
export class AddressBlockEntity {
  @PrimaryGeneratedColumn() id!: number;
  /** The address, or `xxxx:xxxx:xxxx:xxxx::/64` (throttleBucket). */
  @Column('text') bucket!: string;
  @Column('integer') blocked_at!: number;
  @Column('integer') blocked_until!: number;
  /** Failed attempts: those that caused the block, and those made while it lasted. */
  @Column('integer') failures!: number;
  @Column('text') reason!: BlockReason;
}
