package com.acme.person.config;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.IoHandlerFactory;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.ServerChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollIoHandler;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.nio.NioIoHandler;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * A group of Netty transport threads of the process's own, epoll where the shaded Netty has it
 * (as grpc-java's default), NIO elsewhere, with the socket types that go with it. grpc-java's
 * default threads are one group shared by every server and channel of the process: the gRPC
 * server's and the auth client's connections were served by the same threads, and calls run
 * in place on those (CallPlacement), so a burst of calls kept the auth service's answer
 * waiting behind them until the token check's deadline passed (scenario 7 of the benchmarks:
 * 500 uploaders, some refused "auth service unavailable (DEADLINE_EXCEEDED)"). Each user gets
 * its own group instead (GrpcTransportConfig, AuthClientConfig). Closed with its bean.
 */
public final class TransportThreads implements AutoCloseable {

  private static final boolean EPOLL = Epoll.isAvailable();

  private final EventLoopGroup group;

  /** threads: how many (0: Netty's default, two per core); name: of the threads, with their number. */
  public TransportThreads(String name, int threads) {
    IoHandlerFactory io = EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    this.group = new MultiThreadIoEventLoopGroup(
        threads, new ThreadFactoryBuilder().setNameFormat(name + "-%d").setDaemon(true).build(), io);
  }

  public EventLoopGroup group() {
    return group;
  }

  public Class<? extends ServerChannel> serverChannelType() {
    return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
  }

  public Class<? extends Channel> clientChannelType() {
    return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
  }

  /** After the server or channel that used it has shut down (its bean depends on this one). */
  @Override
  public void close() {
    group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
