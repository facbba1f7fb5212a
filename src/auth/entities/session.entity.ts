import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type SignInMethod = 'setup' | 'passkey' | 'password' | 'recovery' | 'enroll' | 'reset';

@Entity('sessions')
export class SessionEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('text') token_hash!: string;
  @Column('text') method!: SignInMethod;
  @Column('integer') created_at!: number;
  @Column('integer') seen_at!: number;
  @Column('integer') expires_at!: number;
  /** Sign-in or step-up time + 12 h: until then sensitive changes need no new proof. */
  @Column('integer') fresh_until!: number;
  @Column('text', { nullable: true }) ip!: string | null;
  @Column('text', { nullable: true }) device!: string | null;
}
