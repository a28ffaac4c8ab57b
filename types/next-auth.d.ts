import 'next-auth';
import 'next-auth/jwt';

// The player's id travels in the JWT and the session; everything else is looked up.
declare module 'next-auth' {
  interface User {
    sv?: number;
  }
  interface Session {
    user: { id: string; name: string };
  }
}

declare module 'next-auth/jwt' {
  interface JWT {
    uid?: string;
    /** The account's session version at sign-in: a newer one in the database signs this session out. */
    sv?: number;
    /** When the player last proved who they are (a password or a provider's sign-in), in seconds: grave steps of an account without a password need it recent. */
    at?: number;
  }
}
