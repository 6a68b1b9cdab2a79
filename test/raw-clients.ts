// Misbehaving HTTP clients over raw sockets, for the tests of the slots that slow clients must not
// keep (src/plugins/large-body-gate.ts, src/routes/export.ts): one that trickles its body, one
// that stops reading the answer.
import { connect, type Socket } from 'node:net';
import type { Test } from 'tap';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  ms: number;
}

function parseAnswer(received: string, started: number): RawAnswer {
  const [headText = '', body = ''] = received.split('\r\n\r\n');
  const [statusLine = '', ...lines] = headText.split('\r\n');
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0),
    headers: Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()])),
    body,
    ms: Date.now() - started,
  };
}

function open(t: Test, port: number, request: string): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {}); // writing after the server closed: expected
  socket.write(request);
  t.teardown(() => socket.destroy());
  return socket;
}

const headLines = (headers: Record<string, string>) =>
  Object.entries({ host: 'localhost', ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');

export interface SlowUpload {
  /** What the server answered, once it closed the connection. */
  answer: Promise<RawAnswer>;
  /** The client goes away. */
  leave(): void;
}

/** A client that announces a 2 MB body and then sends one byte every 200 ms. */
export function slowUpload(t: Test, port: number, path: string, headers: Record<string, string> = {}): SlowUpload {
  const started = Date.now();
  const head = headLines({ 'content-type': 'application/json', 'content-length': '2000000', ...headers });
  const socket = open(t, port, `POST ${path} HTTP/1.1\r\n${head}\r\n{"type":"photo","caption":"`);
  const trickle = setInterval(() => socket.writable && socket.write('a'), 200);
  t.teardown(() => clearInterval(trickle));
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => {
    received += chunk;
  });
  const answer = new Promise<RawAnswer>((resolve) =>
    socket.on('close', () => {
      clearInterval(trickle);
      resolve(parseAnswer(received, started));
    }),
  );
  return { answer, leave: () => socket.destroy() };
}

export interface StalledReader {
  /** The status line and headers, once they came (the body part so far, too). */
  head: Promise<RawAnswer>;
  /** Reads on: everything that arrived after the headers, once the server closed the connection. */
  readRest(): Promise<string>;
}

/**
 * A client that sends a GET and, once the status line and headers have come, reads nothing more:
 * the answer fills the socket buffers on both sides and then cannot be written any further.
 */
export function stalledReader(t: Test, port: number, path: string, headers: Record<string, string> = {}): StalledReader {
  const started = Date.now();
  const socket = open(t, port, `GET ${path} HTTP/1.1\r\n${headLines(headers)}\r\n`);
  let received = '';
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const head = new Promise<RawAnswer>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (!received.includes('\r\n\r\n')) return;
      // From here on the socket stops reading from the kernel once Node's own small buffer is full.
      socket.off('data', onData);
      socket.pause();
      resolve(parseAnswer(received, started));
    };
    socket.on('data', onData);
    void closed.then(() => reject(new Error(`the connection closed before the headers: ${received.slice(0, 200)}`)));
  });
  return {
    head,
    async readRest() {
      await head;
      let rest = '';
      socket.on('data', (chunk: Buffer) => {
        rest += chunk.toString('latin1');
      });
      socket.resume();
      await closed;
      return rest;
    },
  };
}
