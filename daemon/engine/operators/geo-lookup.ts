// @geoLookup: looks the input address up in geoip-country's database. On a hit it fills the GEO
// collection (COUNTRY_CODE, COUNTRY_NAME, COUNTRY_CONTINENT: this database has no region, city or
// coordinates) through runtime.setGeo and matches; unknown or private addresses do not match.
// The database (~50 MB resident) is loaded when the first rule using the operator is compiled.
import { createRequire } from 'node:module';
import ipaddr from 'ipaddr.js';
import type { OperatorDefinition, OperatorFactory } from './types.js';

interface GeoRecord { country: string; name?: string; continent?: string }
interface GeoDatabase { lookup(ip: string): GeoRecord | null }

let database: GeoDatabase | undefined;

function geoDatabase(): GeoDatabase {
  database ??= createRequire(import.meta.url)('geoip-country') as GeoDatabase;
  return database;
}

export const geoLookup: OperatorFactory = () => {
  const db = geoDatabase();
  return (input, runtime) => {
    if (!ipaddr.IPv4.isValidFourPartDecimal(input) && !ipaddr.IPv6.isValid(input)) return false;
    const record = db.lookup(input);
    if (!record || !record.country) return false;
    runtime.setGeo?.({
      COUNTRY_CODE: record.country,
      COUNTRY_NAME: record.name ?? '',
      COUNTRY_CONTINENT: record.continent ?? '',
    });
    return true;
  };
};

export const geoLookupOperator: OperatorDefinition = { create: geoLookup, pure: false, effectsOnMatch: true, requiredBytes: null };
