package service

// The compatibility levels, as Confluent names them. BACKWARD: the new schema reads what the
// last one wrote (its consumers may upgrade first); FORWARD: the last one reads what the new
// one writes; FULL: both; _TRANSITIVE: against every version, not only the last.
const (
	Backward           = "BACKWARD"
	BackwardTransitive = "BACKWARD_TRANSITIVE"
	Forward            = "FORWARD"
	ForwardTransitive  = "FORWARD_TRANSITIVE"
	Full               = "FULL"
	FullTransitive     = "FULL_TRANSITIVE"
	None               = "NONE"
)

// DefaultLevel is the level of a registry and subject nobody configured: every version, as
// `make check` compares a change with every release.
const DefaultLevel = BackwardTransitive

type level struct{ backward, forward, transitive bool }

var levels = map[string]level{
	Backward:           {backward: true},
	BackwardTransitive: {backward: true, transitive: true},
	Forward:            {forward: true},
	ForwardTransitive:  {forward: true, transitive: true},
	Full:               {backward: true, forward: true},
	FullTransitive:     {backward: true, forward: true, transitive: true},
	None:               {},
}

// ValidLevel says whether a name is a compatibility level.
func ValidLevel(name string) bool {
	_, ok := levels[name]
	return ok
}
