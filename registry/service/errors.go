package service

import "fmt"

// Error is an answer the client caused, with Confluent's error code; its HTTP status is the
// code's first three digits.
type Error struct {
	Code    int
	Message string
}

func (e *Error) Error() string { return e.Message }

// Status is the HTTP status of the error's code.
func (e *Error) Status() int {
	s := e.Code
	for s >= 1000 {
		s /= 10
	}
	return s
}

// Confluent's error codes.
const (
	CodeSubjectNotFound = 40401
	CodeVersionNotFound = 40402
	CodeSchemaNotFound  = 40403
	CodeSubjectNoConfig = 40408
	CodeIncompatible    = 409
	CodeInvalidSchema   = 42201
	CodeInvalidVersion  = 42202
	CodeInvalidLevel    = 42203
	CodeUnprocessable   = 422
	CodeTooLarge        = 413
)

func errorf(code int, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
