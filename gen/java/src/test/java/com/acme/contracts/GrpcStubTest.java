package com.acme.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.GetPersonResponse;
import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The generated gRPC stubs carry the contract's call shapes and work over a real channel. */
class GrpcStubTest {

  @Test
  void methodsHaveTheContractsCallShapes() {
    assertEquals(MethodType.UNARY, PersonServiceGrpc.getRegisterPersonMethod().getType());
    assertEquals(MethodType.CLIENT_STREAMING, PersonServiceGrpc.getRegisterPeopleMethod().getType());
    assertEquals(MethodType.UNARY, PersonServiceGrpc.getGetPersonMethod().getType());
    assertEquals(MethodType.SERVER_STREAMING, PersonServiceGrpc.getListPeopleMethod().getType());
    assertEquals(MethodType.BIDI_STREAMING, PersonServiceGrpc.getSyncPeopleMethod().getType());
    assertEquals("acme.person.v1.PersonService/GetPerson",
        PersonServiceGrpc.getGetPersonMethod().getFullMethodName());
  }

  @Test
  void unaryCallCarriesMessagesAndStatus() throws Exception {
    String name = InProcessServerBuilder.generateName();
    Server server = InProcessServerBuilder.forName(name).directExecutor()
        .addService(new PersonServiceGrpc.PersonServiceImplBase() {
          @Override
          public void getPerson(GetPersonRequest request, StreamObserver<GetPersonResponse> out) {
            if (request.getId().isEmpty()) {
              out.onError(Status.NOT_FOUND.withDescription("no id").asRuntimeException());
              return;
            }
            out.onNext(GetPersonResponse.newBuilder()
                .setPerson(PersonRoundTripTest.samplePerson().toBuilder().setId(request.getId()))
                .build());
            out.onCompleted();
          }
        })
        .build().start();
    ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    try {
      var stub = PersonServiceGrpc.newBlockingStub(channel);
      GetPersonResponse found = stub.getPerson(GetPersonRequest.newBuilder().setId("abc").build());
      assertEquals("abc", found.getPerson().getId());
      assertEquals("Zürich", found.getPerson().getAddress().getCity());

      StatusRuntimeException missing = org.junit.jupiter.api.Assertions.assertThrows(
          StatusRuntimeException.class, () -> stub.getPerson(GetPersonRequest.getDefaultInstance()));
      assertEquals(Status.Code.NOT_FOUND, missing.getStatus().getCode());
    } finally {
      channel.shutdownNow();
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
