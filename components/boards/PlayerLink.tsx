import Link from 'next/link';

/** A player's name, linking to their public profile (as on every board and list). */
export function PlayerLink({ username, className = '' }: { username: string; className?: string }) {
  return (
    <Link href={`/u/${encodeURIComponent(username)}`} className={`hover:underline ${className}`}>
      {username}
    </Link>
  );
}
