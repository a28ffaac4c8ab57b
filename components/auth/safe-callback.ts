/** Only same-site paths: a callbackUrl must never send a player to another origin. */
export function safeCallback(value: string | null | undefined): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/';
}
