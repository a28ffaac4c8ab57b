import { SMTPServer } from 'smtp-server';

export type Mail = { to: string[]; raw: string };

/**
 * A real SMTP server process-side (the `smtp-server` package) that keeps what it receives, so a
 * test can read the link out of a mail the app sent through nodemailer.
 */
export async function startMailbox(port: number) {
  const mails: Mail[] = [];
  const waiting: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        waiting.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    /** The first link to `path` in the next mail to `to` (quoted-printable soft breaks undone). */
    async linkTo(to: string, path: string): Promise<string> {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const mail = mails.find((m) => m.to.includes(to) && m.raw.includes(path.slice(0, 8)));
        if (mail) {
          mails.splice(mails.indexOf(mail), 1);
          const text = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
          const link = new RegExp(`https?://[^\\s]+${path.replace(/[?]/g, '\\?')}[^\\s]+`).exec(text)?.[0];
          if (!link) throw new Error(`no ${path} link in the mail to ${to}:\n${text}`);
          return link;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within 15 s`);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 1000);
        });
      }
    },
    count: (to: string) => mails.filter((m) => m.to.includes(to)).length,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
