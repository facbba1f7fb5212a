import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The one owner of this installation (id is always 1). */
@Entity('owner')
export class OwnerEntity {
  @PrimaryColumn('integer') id!: number;
  @Column('text') email!: string;
  @Column('text') password_hash!: string;
  @Column('text') totp_secret!: string;
  @Column('integer') created_at!: number;
  @Column('integer') updated_at!: number;
}
