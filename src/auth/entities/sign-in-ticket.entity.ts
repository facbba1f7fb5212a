import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Proof that the password was right, waiting for the second factor: 5 minutes, single use; only its hash is kept. */
@Entity('sign_in_tickets')
export class SignInTicketEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('text') token_hash!: string;
  @Column('integer') created_at!: number;
  @Column('integer') expires_at!: number;
  @Column('integer', { nullable: true }) used_at!: number | null;
}
