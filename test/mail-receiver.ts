// A loopback SMTP server for the tests that send mail (accounts, notifications): every message it
// takes is parsed (mailparser) and kept in `inbox`, oldest first.
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Header lines by their lower-case name, as written (`list-unsubscribe-post` …). */
  headers: Map<string, string>;
}

export interface MailReceiver {
  /** SMTP_URL for the app: `smtp://127.0.0.1:<port>`. */
  url: string;
  inbox: ReceivedMail[];
  close(): Promise<void>;
}

export async function startMailReceiver(): Promise<MailReceiver> {
  const inbox: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      simpleParser(stream)
        .then((mail) => {
          const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
          const headers = new Map(mail.headerLines.map((h) => [h.key, h.line.slice(h.line.indexOf(':') + 1).trim()]));
          inbox.push({ to: to?.value[0]?.address ?? '', subject: mail.subject ?? '', text: mail.text ?? '', html: String(mail.html), headers });
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    inbox,
    close: () => new Promise<void>((resolve) => smtp.close(resolve)),
  };
}
