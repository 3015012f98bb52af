import { describe, expect, it } from 'vitest';
import { isValidChannel } from '../../src/grant-store/index.js';
import { incomingMessage, outgoingMessage } from '../../src/transports/relayed-transport.js';
import {
  localRequestId,
  MAX_RELAYED_MESSAGE_BYTES,
  parseRelayEnvelope,
  parseSessionRecord,
  relayEnvelope,
  sessionChannel,
  sessionInitOf,
  tagOfWireId,
  wireRequestId,
} from '../../src/transports/session-record.js';

const init = {
  protocolVersion: '2025-11-25',
  capabilities: { elicitation: { url: {} } },
  clientInfo: { name: 'agent', version: '1.0.0' },
};

describe('the shared session record', () => {
  it('SCL-30 keeps what initialize said (protocol version, capabilities, client info) and nothing else', () => {
    expect(sessionInitOf({ ...init, _meta: { extra: true } })).toEqual(init);
    expect(parseSessionRecord({ caller: 'ada client grant', init })).toEqual({ caller: 'ada client grant', init });
  });

  it('SCL-30 refuses a record or initialize parameters without their shape', () => {
    expect(sessionInitOf({ ...init, protocolVersion: 7 })).toBeUndefined();
    expect(sessionInitOf({ ...init, clientInfo: { name: 'agent' } })).toBeUndefined();
    expect(sessionInitOf({ ...init, capabilities: [] })).toBeUndefined();
    expect(sessionInitOf({ ...init, capabilities: { padding: 'x'.repeat(20_000) } })).toBeUndefined();
    expect(parseSessionRecord({ caller: '', init })).toBeUndefined();
    expect(parseSessionRecord({ init })).toBeUndefined();
    expect(parseSessionRecord(undefined)).toBeUndefined();
  });
});

describe('a session record read back from the store', () => {
  it('ST-17 reads as absent when a field has the wrong type or the record is nested in another', () => {
    expect(parseSessionRecord({ caller: 7, init })).toBeUndefined();
    expect(parseSessionRecord({ caller: 'ada client grant', init: { ...init, clientInfo: 'agent' } })).toBeUndefined();
    expect(parseSessionRecord({ record: { caller: 'ada client grant', init } })).toBeUndefined();
    expect(parseSessionRecord([{ caller: 'ada client grant', init }])).toBeUndefined();
  });
});

describe('the channel of a session', () => {
  it('SCL-34 is named by a hash of the session id, the same on every instance and different for every session', () => {
    const id = 'aSessionIdOf32CharactersExactly_';
    expect(sessionChannel(id)).toBe(sessionChannel(id));
    expect(sessionChannel(id)).not.toContain(id);
    expect(sessionChannel(id)).not.toBe(sessionChannel(`${id}x`));
    expect(isValidChannel(sessionChannel(id))).toBe(true);
  });
});

describe('a relayed message', () => {
  const answer = { jsonrpc: '2.0' as const, id: 'tag.0', result: { action: 'accept' } };

  it('SCL-33 travels when it is within the size bound, and is read back the same', () => {
    const envelope = relayEnvelope({ kind: 'to-server', from: 'instance-a', message: answer });
    expect(parseRelayEnvelope(envelope)).toEqual({ kind: 'to-server', from: 'instance-a', message: answer });
    expect(parseRelayEnvelope(relayEnvelope({ kind: 'closed', from: 'instance-a' }))).toEqual({
      kind: 'closed',
      from: 'instance-a',
    });
  });

  it('SCL-33 is not relayed over the size bound, and one received over it is ignored', () => {
    const big = { ...answer, result: { action: 'accept', content: { text: 'x'.repeat(MAX_RELAYED_MESSAGE_BYTES) } } };
    expect(relayEnvelope({ kind: 'to-server', from: 'instance-a', message: big })).toBeUndefined();
    expect(parseRelayEnvelope({ kind: 'to-server', from: 'instance-a', message: big })).toBeUndefined();
  });

  it('SCL-33 ignores what is not an envelope of a JSON-RPC message', () => {
    expect(parseRelayEnvelope({ kind: 'to-server', from: 'instance-a', message: { id: 1 } })).toBeUndefined();
    expect(parseRelayEnvelope({ kind: 'exec', from: 'instance-a', message: answer })).toBeUndefined();
    expect(parseRelayEnvelope({ kind: 'to-stream', message: answer })).toBeUndefined();
    expect(parseRelayEnvelope('closed')).toBeUndefined();
  });
});

describe('server-to-client request ids', () => {
  it("SCL-33 name the session copy that sent the request, and give the server back its own id only for that copy's answers", () => {
    expect(wireRequestId('copyA', 0)).toBe('copyA.0');
    expect(tagOfWireId('copyA.12')).toBe('copyA');
    expect(tagOfWireId(12)).toBeUndefined();
    expect(tagOfWireId('plain')).toBeUndefined();
    expect(localRequestId('copyA', 'copyA.12')).toBe(12);
    expect(localRequestId('copyB', 'copyA.12')).toBeUndefined();
    expect(localRequestId('copyA', 7)).toBeUndefined();
  });

  it('SCL-33 tag what the server sends (its requests and its cancellations of them) and untag what answers them', () => {
    const request = { jsonrpc: '2.0' as const, id: 3, method: 'elicitation/create', params: { mode: 'url' } };
    expect(outgoingMessage(request, 'copyA')).toEqual({ ...request, id: 'copyA.3' });
    const cancel = {
      jsonrpc: '2.0' as const,
      method: 'notifications/cancelled',
      params: { requestId: 3, reason: 'timeout' },
    };
    expect(outgoingMessage(cancel, 'copyA')).toEqual({
      ...cancel,
      params: { requestId: 'copyA.3', reason: 'timeout' },
    });
    const result = { jsonrpc: '2.0' as const, id: 5, result: {} };
    expect(outgoingMessage(result, 'copyA')).toBe(result);
    expect(incomingMessage({ jsonrpc: '2.0', id: 'copyA.3', result: { action: 'accept' } }, 'copyA')).toEqual({
      jsonrpc: '2.0',
      id: 3,
      result: { action: 'accept' },
    });
    expect(incomingMessage({ jsonrpc: '2.0', id: 'copyB.3', result: {} }, 'copyA')).toEqual({
      jsonrpc: '2.0',
      id: 'copyB.3',
      result: {},
    });
    const clientRequest = { jsonrpc: '2.0' as const, id: 'copyA.3', method: 'tools/list' };
    expect(incomingMessage(clientRequest, 'copyA')).toBe(clientRequest);
  });
});
