import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BODY_LIMIT } from './probe-catalogue.js';
import { freePort, listening } from '../support/nginx-listening.js';

// nginx + ModSecurity v3 + CRS (PL1, anomaly scoring), set up as the proxy anchors of
// ../shared/anchors/proxy (bench/proxy compares with the same): ModSecurity's recommended
// configuration with the engine on, the CRS setup's defaults, and page protection done the nginx
// way (`location ^~ /wp-admin { allow ...; deny all; }`). One process, its own temp prefix, a free
// port. Debian: nginx + libnginx-mod-http-modsecurity + modsecurity-crs.

const MODULE = '/usr/lib/nginx/modules/ngx_http_modsecurity_module.so';
const CRS_RULES = '/usr/share/modsecurity-crs/rules';

/** Why the comparison cannot run here, or null when it can. */
export function nginxModSecurityMissing(): string | null {
  if (!existsSync('/usr/sbin/nginx')) return 'nginx is not installed (Debian: nginx)';
  if (!existsSync(MODULE)) return `${MODULE} is missing (Debian: libnginx-mod-http-modsecurity)`;
  if (!existsSync(`${CRS_RULES}/REQUEST-942-APPLICATION-ATTACK-SQLI.conf`)) return `CRS is missing in ${CRS_RULES} (Debian: modsecurity-crs)`;
  return null;
}

/** How the comparison is set up; the defaults are the bypass harness's (the proxy anchors' PL1, /wp-admin protected). */
export interface NginxModSecurityOptions {
  paranoia?: 1 | 2 | 3 | 4;
  /** CRS 3.3's rule 900130 (tx.crs_exclusions_wordpress=1), as the daemon runs CRS 3 (daemon/rule-sets/rule-set-builder.ts). */
  wordpressExclusions?: boolean;
  /** `location ^~ /wp-admin { allow 192.0.2.1; deny all; }`, the nginx form of the harness's page protection. */
  protectWpAdmin?: boolean;
}

export interface NginxModSecurity {
  port: number;
  /** nginx's error log, where ModSecurity writes every rule that matched (`[id "942100"]`). */
  errorLog: string;
  close(): Promise<void>;
}

function modsecurityConf(dir: string, options: NginxModSecurityOptions): string {
  const exclusions = options.wordpressExclusions ? 'SecAction "id:900130,phase:1,nolog,pass,t:none,setvar:tx.crs_exclusions_wordpress=1"\n' : '';
  return `# ModSecurity v3 recommended settings with the engine on (as the proxy anchors)
SecRuleEngine On
SecRequestBodyAccess On
SecRule REQUEST_HEADERS:Content-Type "^(?:application(?:/soap\\+|/)|text/)xml" "id:'200000',phase:1,t:none,t:lowercase,pass,nolog,ctl:requestBodyProcessor=XML"
SecRule REQUEST_HEADERS:Content-Type "^application/json" "id:'200001',phase:1,t:none,t:lowercase,pass,nolog,ctl:requestBodyProcessor=JSON"
SecRequestBodyLimit 13107200
SecRequestBodyNoFilesLimit ${BODY_LIMIT}
SecRequestBodyLimitAction Reject
SecRule REQBODY_ERROR "!@eq 0" "id:'200002',phase:2,t:none,log,deny,status:400,msg:'Failed to parse request body.'"
SecRule MULTIPART_STRICT_ERROR "!@eq 0" "id:'200003',phase:2,t:none,log,deny,status:400,msg:'Multipart request body failed strict validation'"
SecRule MULTIPART_UNMATCHED_BOUNDARY "@eq 1" "id:'200004',phase:2,t:none,log,deny,msg:'Multipart parser detected a possible unmatched boundary.'"
SecPcreMatchLimit 1000
SecPcreMatchLimitRecursion 1000
SecRule TX:/^MSC_/ "!@streq 0" "id:'200005',phase:2,t:none,deny,msg:'ModSecurity internal error flagged: %{MATCHED_VAR_NAME}'"
SecResponseBodyAccess Off
SecTmpDir ${dir}/tmp/
SecDataDir ${dir}/tmp/
SecAuditEngine Off
SecArgumentSeparator &
SecCookieFormat 0
SecStatusEngine Off
# CRS setup: the packaged crs-setup.conf's active lines, the paranoia level asked for
SecDefaultAction "phase:1,log,auditlog,pass"
SecDefaultAction "phase:2,log,auditlog,pass"
SecCollectionTimeout 600
SecAction "id:900000,phase:1,nolog,pass,t:none,setvar:tx.paranoia_level=${options.paranoia ?? 1}"
SecAction "id:900990,phase:1,nolog,pass,t:none,setvar:tx.crs_setup_version=334"
${exclusions}Include ${CRS_RULES}/*.conf
`;
}

function nginxConf(dir: string, port: number, originPort: number, options: NginxModSecurityOptions): string {
  const pass = `proxy_pass http://127.0.0.1:${originPort}; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header X-Forwarded-For $remote_addr;`;
  return `load_module ${MODULE};
daemon off; master_process off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off; server_tokens off; default_type text/plain;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  client_max_body_size 13m;
  modsecurity on;
  modsecurity_rules_file ${dir}/modsecurity.conf;
  server {
    listen 127.0.0.1:${port};
${options.protectWpAdmin === false ? '' : `    location ^~ /wp-admin { allow 192.0.2.1; deny all; ${pass} }\n`}    location / { ${pass} }
  }
}
`;
}

export async function startNginxModSecurity(originPort: number, options: NginxModSecurityOptions = {}): Promise<NginxModSecurity> {
  const dir = mkdtempSync(join(tmpdir(), 'wafctl-nginx-modsec-'));
  mkdirSync(join(dir, 'tmp'));
  writeFileSync(join(dir, 'modsecurity.conf'), modsecurityConf(dir, options));
  // nginx cannot listen on port 0: take a free port and retry if another process wins it meanwhile.
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    writeFileSync(join(dir, 'nginx.conf'), nginxConf(dir, port, originPort, options));
    const child = spawn('/usr/sbin/nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
    if (await listening(port, child)) {
      return {
        port,
        errorLog: join(dir, 'error.log'),
        close: () => new Promise((resolve) => {
          child.once('exit', () => { rmSync(dir, { recursive: true, force: true }); resolve(); });
          child.kill('SIGTERM');
        }),
      };
    }
  }
  const log = existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8').slice(-2000) : '';
  rmSync(dir, { recursive: true, force: true });
  throw new Error(`nginx + ModSecurity did not start: ${log}`);
}
