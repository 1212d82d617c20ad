package com.acme.person.bench;

import com.acme.person.domain.PersonDto;
import com.acme.person.mapping.MapStructPersonMapperImpl;
import com.acme.person.mapping.PersonMapper;
import com.acme.person.v1.Person;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a person costs on the way out and in: DTO ↔ proto with each mapper, protobuf-java
 * encode/decode, Jackson encode/decode of the DTO, and the sums a request pays
 * (map + protobuf encode against JSON encode; decode + map against JSON decode).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MappingBenchmark {

  @Param({"small", "medium", "large"})
  public String size;

  private final PersonMapper hand = new HandWrittenPersonMapper();
  private final PersonMapper mapstruct = new MapStructPersonMapperImpl();
  private final JsonMapper json = JsonMapper.builder().build();
  private PersonDto dto;
  private Person proto;
  private byte[] protoBytes;
  private byte[] jsonBytes;

  @Setup
  public void setUp() {
    dto = SamplePeople.of(size);
    proto = hand.toProto(dto);
    protoBytes = proto.toByteArray();
    jsonBytes = json.writeValueAsBytes(dto);
  }

  @Benchmark
  public Person handToProto() {
    return hand.toProto(dto);
  }

  @Benchmark
  public Person mapstructToProto() {
    return mapstruct.toProto(dto);
  }

  @Benchmark
  public PersonDto handFromProto() {
    return hand.fromProto(proto);
  }

  @Benchmark
  public PersonDto mapstructFromProto() {
    return mapstruct.fromProto(proto);
  }

  @Benchmark
  public byte[] protoEncode() {
    return proto.toByteArray();
  }

  @Benchmark
  public Person protoDecode() throws InvalidProtocolBufferException {
    return Person.parseFrom(protoBytes);
  }

  @Benchmark
  public byte[] jsonEncode() {
    return json.writeValueAsBytes(dto);
  }

  @Benchmark
  public PersonDto jsonDecode() {
    return json.readValue(jsonBytes, PersonDto.class);
  }

  /** What a gRPC response pays: MapStruct DTO→proto, then protobuf encode. */
  @Benchmark
  public byte[] mapAndProtoEncode() {
    return mapstruct.toProto(dto).toByteArray();
  }

  /** What a gRPC request pays: protobuf decode, then MapStruct proto→DTO. */
  @Benchmark
  public PersonDto protoDecodeAndMap() throws InvalidProtocolBufferException {
    return mapstruct.fromProto(Person.parseFrom(protoBytes));
  }
}
