// The person service's own decoder, for the fuzz suite's oracle: person-spring decodes requests
// with protobuf-java, which differs from the Python SDK's upb at the edges (it takes a tag whose
// field number is out of range as an unknown field, for one), and whether it must answer
// INVALID_ARGUMENT is a question of what *it* can decode. Run with `java -cp <SDK and
// protobuf-java jars> DecodeJava.java`. One request per line, "<message type> <hex>"; one answer
// per line, "1" (decodes) or "0".
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.util.HexFormat;
import java.util.Map;

public class DecodeJava {
  public static void main(String[] args) throws Exception {
    Map<String, Message> types = Map.of(
        "acme.person.v1.RegisterPersonRequest", com.acme.person.v1.RegisterPersonRequest.getDefaultInstance(),
        "acme.person.v1.GetPersonRequest", com.acme.person.v1.GetPersonRequest.getDefaultInstance(),
        "acme.person.v1.ListPeopleRequest", com.acme.person.v1.ListPeopleRequest.getDefaultInstance(),
        "acme.person.v1.RegisterPeopleRequest", com.acme.person.v1.RegisterPeopleRequest.getDefaultInstance(),
        "acme.person.v1.SyncPeopleRequest", com.acme.person.v1.SyncPeopleRequest.getDefaultInstance());
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    PrintStream out = new PrintStream(System.out, true);
    for (String line; (line = in.readLine()) != null; ) {
      String[] parts = line.split(" ", 2);
      String ok = "1";
      try {
        types.get(parts[0]).getParserForType().parseFrom(HexFormat.of().parseHex(parts.length > 1 ? parts[1] : ""));
      } catch (InvalidProtocolBufferException e) {
        ok = "0";
      }
      out.println(ok);
    }
  }
}
