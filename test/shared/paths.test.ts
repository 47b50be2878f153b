import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataPaths, defaultDataDir } from '../../shared/paths.js';

describe('data paths', () => {
  it('default data dir: WAFCTL_DATA_DIR, then XDG_DATA_HOME/wafctl, then ~/.local/share/wafctl', () => {
    expect(defaultDataDir({ WAFCTL_DATA_DIR: '/srv/waf', XDG_DATA_HOME: '/x' })).toBe('/srv/waf');
    expect(defaultDataDir({ XDG_DATA_HOME: '/x' })).toBe('/x/wafctl');
    expect(defaultDataDir({})).toBe(join(homedir(), '.local', 'share', 'wafctl'));
  });

  it('names every file inside the data dir', () => {
    const paths = dataPaths('/d');
    expect(paths).toMatchObject({
      dir: '/d', config: '/d/config.json', daemonConfig: '/d/daemon.json', adminSocket: '/d/wafctl.sock',
      pidFile: '/d/wafctl.pid', log: '/d/daemon.log', caCert: '/d/tls/ca.crt', serverKey: '/d/tls/server.key',
      eventsDir: '/d/events', vulndbDir: '/d/vulndb',
    });
  });
});
