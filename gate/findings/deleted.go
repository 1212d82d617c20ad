package findings

import (
	"regexp"
	"strconv"

	"github.com/acme/contracts/gate/bufcli"
	"github.com/acme/contracts/gate/image"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// buf reports a deletion at what still holds the deleted element (the message that lost a field,
// the service that lost an RPC), and names the element only in its message. (A reserved range
// removed stays on its message: buf names the range, which is no declaration.) Pinned to the holder,
// one exception or one Accepted-Break for "a field of Person was deleted" would accept deleting
// any field of Person, now and later; so a deletion is pinned to what it deleted, named as the
// other side declared it.
var (
	// Previously present field "3" with name "age" on message "Person" was deleted.
	// Previously present oneof "o" on message "M" was deleted.
	// Previously present RPC "Gone" on service "S" was deleted.
	deletedChild = regexp.MustCompile(`^Previously present (?:field "\d+" with name "([^"]+)"|oneof "([^"]+)"|RPC "([^"]+)") on (?:message|service) "[^"]+"`)
	// Previously present enum value "2" on enum "Role" was deleted. (buf gives the number only)
	deletedValue = regexp.MustCompile(`^Previously present enum value "(-?\d+)" on enum "[^"]+"`)
	// Previously present message "M.N" was deleted from file. (the name is the package's)
	// Previously present extension "Holder.ext" was deleted from file.
	deletedDecl = regexp.MustCompile(`^Previously present (?:message|enum|service|extension) "([^"]+)" was deleted from file`)
)

// deleted is the fully-qualified name of what a deletion finding deleted, given the element it
// is pinned to in the head (holder) and the side that still has it (other); "" when the
// violation is no such deletion or the name is not declared on that side.
func deleted(v bufcli.Violation, holder string, other *image.Image) string {
	if other == nil {
		return ""
	}
	name := ""
	if m := deletedChild.FindStringSubmatch(v.Message); m != nil && holder != "" {
		name = holder + "." + m[1] + m[2] + m[3]
	} else if m := deletedValue.FindStringSubmatch(v.Message); m != nil && holder != "" {
		name = valueName(other, holder, m[1])
	} else if m := deletedDecl.FindStringSubmatch(v.Message); m != nil {
		for _, f := range other.Own() {
			if f.GetName() == v.Path {
				name = m[1]
				if f.GetPackage() != "" {
					name = f.GetPackage() + "." + m[1]
				}
			}
		}
	}
	if name == "" || !other.Index().Has(name) {
		return ""
	}
	return name
}

// IsDeletion says whether buf's violation reports something deleted (its name is then read from
// the side that still has it).
func IsDeletion(v bufcli.Violation) bool {
	return deletedChild.MatchString(v.Message) || deletedValue.MatchString(v.Message) || deletedDecl.MatchString(v.Message)
}

// valueName names the value numbered number of the enum enum in im ("" when there is none).
func valueName(im *image.Image, enum, number string) string {
	n, err := strconv.ParseInt(number, 10, 32)
	if err != nil {
		return ""
	}
	files, err := im.Link()
	if err != nil {
		return ""
	}
	d, err := files.FindDescriptorByName(protoreflect.FullName(enum))
	if err != nil {
		return ""
	}
	e, ok := d.(protoreflect.EnumDescriptor)
	if !ok {
		return ""
	}
	if value := e.Values().ByNumber(protoreflect.EnumNumber(n)); value != nil {
		return string(value.FullName())
	}
	return ""
}
