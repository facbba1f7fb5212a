import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type LinkPurpose = 'setup' | 'enroll' | 'reset';

/** A single-use link (first-run setup, break-glass enrolment, password reset); only its hash is kept. */
@Entity('link_tokens')
export class LinkTokenEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('text') purpose!: LinkPurpose;
  @Column('text') token_hash!: string;
  /** Setup links carry the authenticator secret the owner scans before the account exists. */
  @Column('text', { nullable: true }) totp_secret!: string | null;
  @Column('integer') created_at!: number;
  @Column('integer') expires_at!: number;
  @Column('integer', { nullable: true }) used_at!: number | null;
}
