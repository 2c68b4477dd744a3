/**
 * The text forms of google.protobuf.Timestamp (RFC 3339, UTC, years 1 to 9999), Duration
 * (`"-1.5s"`, within ±10000 years) and FieldMask paths, as the proto3 JSON mapping writes
 * and reads them.
 */

import { JsonError, type JsonPath } from "./jsontext.js";


/** Seconds of 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, the Timestamp range. */
const TS_MIN = -62135596800n;
const TS_MAX = 253402300799n;
/** ±10000 years, the Duration range. */
const DUR_MAX = 315576000000n;

function daysFromCivil(y: number, m: number, d: number): number {
  // Days since 1970-01-01 in the proleptic Gregorian calendar, years counted from March.
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const mp = (m + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(z0: number): [number, number, number] {
  const z = z0 + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const f = Math.floor;
  const yoe = f((doe - f(doe / 1460) + f(doe / 36524) - f(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

/** 0, 3, 6 or 9 fractional digits. */
function fraction(nanos: number): string {
  if (nanos === 0) return "";
  if (nanos % 1000000 === 0) return "." + String(nanos / 1000000).padStart(3, "0");
  if (nanos % 1000 === 0) return "." + String(nanos / 1000).padStart(6, "0");
  return "." + String(nanos).padStart(9, "0");
}

const pad2 = (n: number): string => String(n).padStart(2, "0");

export function timestampText(seconds: bigint, nanos: number, path: JsonPath): string {
  if (seconds < TS_MIN || seconds > TS_MAX || !(nanos >= 0 && nanos < 1e9)) {
    throw new JsonError(path, `Timestamp ${seconds}s ${nanos}ns is outside 0001-01-01 to 9999-12-31`);
  }
  const s = Number(seconds);
  const days = Math.floor(s / 86400);
  const t = s - days * 86400;
  const [y, mo, d] = civilFromDays(days);
  return (
    `${String(y).padStart(4, "0")}-${pad2(mo)}-${pad2(d)}T` +
    `${pad2(Math.floor(t / 3600))}:${pad2(Math.floor(t / 60) % 60)}:${pad2(t % 60)}${fraction(nanos)}Z`
  );
}

const TS_RE = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

export function parseTimestamp(s: string): [bigint, number] | undefined {
  const r = TS_RE.exec(s);
  if (r === null) return undefined;
  const [y, mo, d, h, mi, se] = [1, 2, 3, 4, 5, 6].map((i) => Number(r[i]));
  const leap = y! % 4 === 0 && (y! % 100 !== 0 || y! % 400 === 0);
  const monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  const dateOk = y! >= 1 && mo! >= 1 && mo! <= 12 && d! >= 1 && d! <= monthDays[mo! - 1]!;
  if (!dateOk || h! > 23 || mi! > 59 || se! > 59) {
    return undefined;
  }
  const nanos = r[7] === undefined ? 0 : Number(r[7].padEnd(9, "0"));
  let offset = 0;
  if (r[8] === undefined) {
    const oh = Number(r[10]);
    const om = Number(r[11]);
    if (oh > 23 || om > 59) return undefined;
    offset = (oh * 3600 + om * 60) * (r[9] === "-" ? -1 : 1);
  }
  const seconds = BigInt(daysFromCivil(y!, mo!, d!) * 86400 + h! * 3600 + mi! * 60 + se! - offset);
  if (seconds < TS_MIN || seconds > TS_MAX) return undefined;
  return [seconds, nanos];
}

export function durationText(seconds: bigint, nanos: number, path: JsonPath): string {
  const sameSign = seconds === 0n || nanos === 0 || seconds < 0n === nanos < 0;
  const abs = seconds < 0n ? -seconds : seconds;
  if (abs > DUR_MAX || !(Math.abs(nanos) < 1e9) || !sameSign) {
    throw new JsonError(path, `Duration ${seconds}s ${nanos}ns is out of range or mixes signs`);
  }
  const sign = seconds < 0n || nanos < 0 ? "-" : "";
  return `${sign}${abs}${fraction(Math.abs(nanos))}s`;
}

const DUR_RE = /^(-?)(\d+)(?:\.(\d{1,9}))?s$/;

export function parseDuration(s: string): [bigint, number] | undefined {
  const r = DUR_RE.exec(s);
  if (r === null || r[2]!.length > 20) return undefined;
  const secs = BigInt(r[2]!);
  if (secs > DUR_MAX) return undefined;
  const nanos = r[3] === undefined ? 0 : Number(r[3].padEnd(9, "0"));
  return r[1] === "-" ? [-secs, nanos === 0 ? 0 : -nanos] : [secs, nanos];
}

// ----- FieldMask paths -----

/** `foo_bar.baz_qux` → `fooBar.bazQux`. */
function camel(p: string): string {
  return p.replace(/_(.?)/gsu, (_, c: string) => c.toUpperCase());
}

/** `fooBar.bazQux` → `foo_bar.baz_qux`. */
export function snake(p: string): string {
  return p.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());
}

/**
 * One FieldMask path as its JSON spelling, or a refusal when proto3 JSON cannot spell it
 * so that it reads back the same (`""`, `"a,b"`, `"fooBar"`, `"a__b"`, `"a_1"`).
 */
export function maskPathJson(p: string, path: JsonPath): string {
  const c = camel(p);
  if (p === "" || p.includes(",") || snake(c) !== p) {
    const why = "has no proto3 JSON spelling that reads back as it";
    throw new JsonError(path, `FieldMask path ${JSON.stringify(p)} ${why}`);
  }
  return c;
}

