package bijoubuf

// DefaultMaxDepth is the default nesting limit of both sides: the top-level message is
// depth 1, so 100 levels decode and 101 are refused (SPEC §9.3); encoding refuses the same.
const DefaultMaxDepth = 100

// MaxDepthLimit is the largest nesting limit either side can be configured with (SPEC
// §9.3): decoding and encoding recurse once per level, so the limit bounds their stack.
// A larger request is this; a request of 0 is 1.
const MaxDepthLimit = 500

// clampDepth is a configured depth limit as both sides use it (SPEC §9.3).
func clampDepth(d int) uint32 {
	switch {
	case d <= 0:
		return 1
	case d > MaxDepthLimit:
		return MaxDepthLimit
	}
	return uint32(d)
}

// DecodeOptions are a decode's limits and unknown-field policy. The zero value is the
// default: depth limit 100, no size limit, unknown fields refused (strict, SPEC §8.1).
//
//	opts := bijoubuf.DecodeOptions{}.WithMaxDepth(16).WithMaxSize(1 << 20).Preserving(true)
type DecodeOptions struct {
	maxDepth   uint32 // 0: DefaultMaxDepth
	maxSize    int
	hasMaxSize bool
	preserve   bool
}

// WithMaxDepth refuses messages nested deeper than d (the top level is depth 1). A limit
// below 1 is 1 and one above MaxDepthLimit is MaxDepthLimit (SPEC §9.3).
func (o DecodeOptions) WithMaxDepth(d int) DecodeOptions {
	o.maxDepth = clampDepth(d)
	return o
}

// WithMaxSize refuses inputs (or frames, for streams) longer than s bytes (SPEC §9.4);
// a negative s removes the limit.
func (o DecodeOptions) WithMaxSize(s int) DecodeOptions {
	o.maxSize, o.hasMaxSize = s, s >= 0
	return o
}

// Preserving keeps unknown records instead of refusing them (SPEC §8.2), in the message
// types whose decode asks to keep them (their "keeps" argument: the preserving set).
func (o DecodeOptions) Preserving(p bool) DecodeOptions {
	o.preserve = p
	return o
}

// MaxDepth is the depth limit.
func (o DecodeOptions) MaxDepth() int {
	if o.maxDepth == 0 {
		return DefaultMaxDepth
	}
	return int(o.maxDepth)
}

// MaxSize is the size limit and whether there is one.
func (o DecodeOptions) MaxSize() (int, bool) { return o.maxSize, o.hasMaxSize }

// IsPreserving says whether unknown records are kept.
func (o DecodeOptions) IsPreserving() bool { return o.preserve }

// EncodeOptions are an encoder's limits: the same as a decoder's, with the same defaults
// and counting, so that an encoder refuses what a decoder with the same settings would
// refuse (SPEC §9). The zero value is the default: depth limit 100, no size limit.
type EncodeOptions struct {
	maxDepth   uint32
	maxSize    int
	hasMaxSize bool
}

// WithMaxDepth is DecodeOptions.WithMaxDepth for the encoder.
func (o EncodeOptions) WithMaxDepth(d int) EncodeOptions {
	o.maxDepth = clampDepth(d)
	return o
}

// WithMaxSize refuses encodings longer than s bytes; a negative s removes the limit.
func (o EncodeOptions) WithMaxSize(s int) EncodeOptions {
	o.maxSize, o.hasMaxSize = s, s >= 0
	return o
}

// MaxDepth is the depth limit.
func (o EncodeOptions) MaxDepth() int {
	if o.maxDepth == 0 {
		return DefaultMaxDepth
	}
	return int(o.maxDepth)
}

// CheckDepth refuses a value whose deepest message is at depth d (the top level is 1)
// when d is past the limit (depth-limit-exceeded).
func (o EncodeOptions) CheckDepth(d int) error {
	if limit := o.MaxDepth(); d > limit {
		return NewEncodeError(EncodeDepthLimitExceeded, "nests messages deeper than "+itoa(limit))
	}
	return nil
}

// CheckSize refuses an encoding of n bytes (a frame's content, for a stream) when a
// size limit is set and n is past it (size-limit-exceeded), before any output.
func (o EncodeOptions) CheckSize(n int) error {
	if o.hasMaxSize && n > o.maxSize {
		return NewEncodeError(EncodeSizeLimitExceeded, "needs "+itoa(n)+" bytes, more than the limit of "+itoa(o.maxSize))
	}
	return nil
}
