import { readResource } from '../common/resources/resources';
import { icoOfPng } from './favicon';

const png = (width: number, height: number): Buffer => {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  return b;
};

describe('icoOfPng', () => {
  it.each<[string, number, number, number, number]>([
    ['the dashboard icon size', 192, 192, 192, 192],
    ['a small one', 32, 16, 32, 16],
    ['256 x 256, written as 0', 256, 256, 0, 0],
  ])('writes one directory entry for %s, the PNG after it', (_what, w, h, wByte, hByte) => {
    const image = png(w, h);
    const ico = icoOfPng(image);
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 1]);
    expect([ico[6], ico[7], ico.readUInt16LE(10), ico.readUInt16LE(12)]).toEqual([wByte, hByte, 1, 32]);
    expect([ico.readUInt32LE(14), ico.readUInt32LE(18)]).toEqual([image.length, 22]);
    expect(ico.subarray(22).equals(image)).toBe(true);
  });

  it.each<[string, Buffer]>([
    ['something that is not a PNG', Buffer.from('GIF89a and more bytes to be long enough')],
    ['a PNG over 256 px', png(512, 512)],
  ])('refuses %s', (_what, input) => {
    expect(() => icoOfPng(input)).toThrow();
  });

  it('takes the shipped dashboard icon', () => {
    expect(icoOfPng(readResource('public/dashboard/icons/icon-192.png'))[6]).toBe(192);
  });
});
