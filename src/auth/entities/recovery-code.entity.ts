import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('recovery_codes')
export class RecoveryCodeEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('text') code_hash!: string;
  @Column('integer') created_at!: number;
  @Column('integer', { nullable: true }) used_at!: number | null;
}
