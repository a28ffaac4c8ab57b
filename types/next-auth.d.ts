import 'next-auth';
import 'next-auth/jwt';

// The player's id travels in the JWT and the session; everything else is looked up.
declare module 'next-auth' {
  interface Session {
    user: { id: string; name: string };
  }
}

declare module 'next-auth/jwt' {
  interface JWT {
    uid?: string;
  }
}
