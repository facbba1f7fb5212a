import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A replacement authenticator secret shown to one session, waiting for a first code (POST /me/totp). */
@Entity('totp_setups')
export class TotpSetupEntity {
  @PrimaryGeneratedColumn() id!: number;
  /** SHA-256 of the setup_id handed out. */
  @Column('text') setup_hash!: string;
  /** The session that asked: another session cannot finish it. */
  @Column('integer') session_id!: number;
  @Column('text') secret!: string;
  @Column('integer') created_at!: number;
  @Column('integer') expires_at!: number;
}
