import { describe, expect, it } from 'vitest';
import { loginCommandFor } from '../../src/app/login-command.js';

describe('the terminal sign-in offered for a server that cannot outlive a call', () => {
  it('names the same school, store and client as the server', () => {
    expect(
      loginCommandFor({ demo: false, configDir: undefined, clientId: undefined }, new URL('https://school.example/')),
    ).toBe('school-mcp login --school https://school.example');
    expect(
      loginCommandFor(
        { demo: false, configDir: '/home/ada/my tokens', clientId: 'c-1' },
        new URL('https://school.example/academy'),
      ),
    ).toBe(
      "school-mcp login --school https://school.example/academy --config-dir '/home/ada/my tokens' --client-id c-1",
    );
  });

  it('offers none for a demo school, which lives only inside its server', () => {
    expect(
      loginCommandFor({ demo: true, configDir: undefined, clientId: undefined }, new URL('http://127.0.0.1:4000/')),
    ).toBeUndefined();
  });
});
