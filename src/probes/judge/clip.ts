/** Shortens text quoted from a target (bodies, banners, answers) before it goes into a message. */
export function clip(text: string, max = 100): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
