package api

import "time"

// The registry's limits, in one place (registry/README.md lists them).
const (
	// MaxBodyBytes bounds a request's body: the contracts' largest file, serialized, is a few
	// KiB; a schema with its text is far below this.
	MaxBodyBytes = 1 << 20
	// MaxSubjectBytes bounds a subject's name, as Confluent's clients expect names to be short.
	MaxSubjectBytes = 255
	// JudgeTimeout bounds one request's compilation and comparisons (buf runs per version).
	JudgeTimeout = 60 * time.Second
)
