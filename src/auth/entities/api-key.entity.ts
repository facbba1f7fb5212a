import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { KeyScope } from '../../common/access/scope';

@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('text') name!: string;
  @Column('text') scope!: KeyScope;
  @Column('text') key_hash!: string;
  @Column('text') prefix!: string;
  @Column('integer') created_at!: number;
  @Column('integer', { nullable: true }) expires_at!: number | null;
  @Column('integer', { nullable: true }) last_used_at!: number | null;
  @Column('text', { nullable: true }) last_ip!: string | null;
}
