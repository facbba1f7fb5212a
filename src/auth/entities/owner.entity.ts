import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The one owner of this installation (id is always 1). */
@Entity('owner')
export class OwnerEntity {
  @PrimaryColumn('integer') id!: number;
  @Column('text') email!: string;
  @Column('text') password_hash!: string;
  @Column('text') totp_secret!: string;
  /** The last authenticator time step (30 s) accepted: a code of that step or earlier is refused (replay). */
  @Column('integer', { nullable: true }) totp_last_step!: number | null;
  @Column('integer') created_at!: number;
  @Column('integer') updated_at!: number;
}
