import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One of the owner's passkeys (migration 1768089600000-Passkeys). */
@Entity('passkeys')
export class PasskeyEntity {
  @PrimaryGeneratedColumn() id!: number;
  /** The credential id, base64url, as the browser reports it. */
  @Column('text') credential_id!: string;
  /** COSE public key bytes from registration. */
  @Column('blob') public_key!: Buffer;
  /** The authenticator's signature counter (0 for authenticators that do not count). */
  @Column('integer') counter!: number;
  /** JSON array of transports ("internal", "usb", "hybrid", ...) or null. */
  @Column('text', { nullable: true }) transports!: string | null;
  @Column('integer') backed_up!: number;
  @Column('text') label!: string;
  @Column('integer') created_at!: number;
  @Column('integer', { nullable: true }) last_used_at!: number | null;
}
