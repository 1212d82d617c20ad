// Package policy holds tests of the repository's own CI configuration that the gate depends
// on: caches a pull request cannot write.
package policy
