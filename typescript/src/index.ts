/**
 * bijoubuf for TypeScript: the canonical Protobuf-style wire format of `conformance/SPEC.md`.
 *
 * Generated code (`bijoubuf compile --ts-out DIR`) declares one interface and one
 * {@link MessageType} per message; this package is the runtime they share: bijou64, the
 * strict decoder, the canonical encoder, length-delimited streams, the proto3 JSON mapping
 * and the errors.
 *
 * ```ts
 * import { Person } from "./gen/example.v1.js";
 * const bytes = Person.encode(Person.create({ name: "Ada", age: 36 }));
 * const back = Person.decode(bytes); // throws DecodeError on any other spelling
 * ```
 */

export { DecodeError, EncodeError, keySegment } from "./errors.js";
export type { EncodeErrorCode, ErrorCode } from "./errors.js";
export { Kind, Presence, WireType } from "./schema.js";
export type { EnumTypeLike, FieldSpec, MessageShape, MessageTypeLike, UnknownField } from "./schema.js";
export { DEFAULT_MAX_DEPTH, EMPTY_BYTES, MAX_DEPTH_LIMIT, MessageType, TYPE_URL_PREFIX, clampDepth } from "./message.js";
export type { DecodeOptions, Decoded, EncodeOptions } from "./message.js";
export { JsonError, fromJson, registerType, toJson, toJsonValue } from "./json.js";
export { base64Decode, base64Encode } from "./base64.js";
export {
  AnyTypeError,
  TIMESTAMP_MAX_SECONDS,
  TIMESTAMP_MIN_SECONDS,
  anyIs,
  anyPack,
  anyTypeName,
  anyUnpack,
  timestampFromDate,
  timestampToDate,
} from "./wellknown.js";
export type { AnyShape, TimestampShape } from "./wellknown.js";
export type { JsonReadOptions, JsonType, JsonWriteOptions } from "./json.js";
export { NMAX } from "./decode.js";
export { decodeFrames } from "./stream.js";
export type { ByteSource, FrameTarget } from "./stream.js";
export type { GeneratedCodec } from "./encode.js";
/** The encoder's per-kind checks and writers, which generated encoders call. */
export * as enc from "./encode.js";
/** The decoder's per-kind reads, which generated decoders call. */
export * as dec from "./decode.js";
export * as bijou64 from "./varint.js";
/** gRPC-web over `fetch`, the transport of generated service clients. */
export * as grpcweb from "./grpcweb.js";
export { RefusedError, RpcError } from "./grpcweb.js";
export { compareCodePoints, firstInvalidUtf8 } from "./utf8.js";
