/*
 * SSE clients that time frames by the kernel: N connections to one stream, each socket with SO_TIMESTAMPNS, so a
 * frame's arrival is the moment the kernel queued its bytes on the client's socket (on loopback, during the
 * server's write), not when a client process got around to reading it. Used by bench/frame-latency.bench.ts to
 * measure the service without the clients' own reading cost (a Node client adds its event loop and a JS callback
 * per socket, on the same cores as the service).
 *
 * Usage: sse-stamp <port> <clients> <api-key> <path>
 * Prints "ready" once every stream has its `ready` frame, then one line per `price` frame:
 *   <client index> <o|c> <CLOCK_MONOTONIC ns>      (o = "confidence":"optimistic", c = any other price frame)
 * Exits when stdin closes.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BUF 65536

struct client {
  int fd;
  int ready;
  size_t len;
  char buf[BUF];
};

static long long ns(clockid_t c) {
  struct timespec t;
  clock_gettime(c, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Consumes complete frames ("...\n\n") of client i; returns -1 on a refused stream. */
static int scan(struct client *c, int i, long long mono) {
  size_t start = 0;
  for (;;) {
    char *end = memmem(c->buf + start, c->len - start, "\n\n", 2);
    if (!end) break;
    *end = 0;
    char *frame = c->buf + start;
    if (!c->ready) {
      if (strstr(frame, "event: ready")) {
        if (strncmp(c->buf, "HTTP/1.1 200", 12) != 0) return -1;
        c->ready = 1;
      }
    } else if (strstr(frame, "event: price")) {
      printf("%d %c %lld\n", i, strstr(frame, "\"confidence\":\"optimistic\"") ? 'o' : 'c', mono);
    }
    start = (size_t)(end - c->buf) + 2;
  }
  if (start > 0) {
    memmove(c->buf, c->buf + start, c->len - start);
    c->len -= start;
  }
  if (c->len == BUF) c->len = 0; /* a frame longer than the buffer: drop it rather than stall */
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: sse-stamp <port> <clients> <api-key> <path>\n");
    return 2;
  }
  int port = atoi(argv[1]);
  int n = atoi(argv[2]);
  char req[4096];
  int reqLen = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: bench\r\nx-api-key: %s\r\n\r\n", argv[4], argv[3]);
  struct client *cs = calloc((size_t)n, sizeof *cs);
  int ep = epoll_create1(0);
  struct sockaddr_in a = {0};
  a.sin_family = AF_INET;
  a.sin_port = htons((unsigned short)port);
  a.sin_addr.s_addr = htonl(0x7f000001);
  for (int i = 0; i < n; i++) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
      perror("connect");
      return 1;
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
    if (write(fd, req, (size_t)reqLen) != reqLen) {
      perror("write");
      return 1;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    cs[i].fd = fd;
    struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (unsigned)i};
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
  }
  struct epoll_event sin = {.events = EPOLLIN, .data.u32 = (unsigned)n};
  epoll_ctl(ep, EPOLL_CTL_ADD, 0, &sin);
  int readyCount = 0;
  struct epoll_event evs[256];
  char ctl[256];
  for (;;) {
    int k = epoll_wait(ep, evs, 256, -1);
    if (k < 0) {
      if (errno == EINTR) continue;
      perror("epoll_wait");
      return 1;
    }
    for (int e = 0; e < k; e++) {
      int i = (int)evs[e].data.u32;
      if (i == n) {
        char b[64];
        if (read(0, b, sizeof b) <= 0) return 0;
        continue;
      }
      struct client *c = &cs[i];
      for (;;) {
        struct iovec io = {.iov_base = c->buf + c->len, .iov_len = BUF - c->len};
        struct msghdr m = {.msg_iov = &io, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof ctl};
        ssize_t r = recvmsg(c->fd, &m, 0);
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        if (r <= 0) {
          fprintf(stderr, "client %d: stream closed\n", i);
          return 1;
        }
        /* The kernel's receive time (CLOCK_REALTIME), moved to CLOCK_MONOTONIC by the clocks' current offset. */
        long long mono = ns(CLOCK_MONOTONIC);
        for (struct cmsghdr *h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h)) {
          if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_TIMESTAMPNS) {
            struct timespec t;
            memcpy(&t, CMSG_DATA(h), sizeof t);
            long long offset = ns(CLOCK_REALTIME) - ns(CLOCK_MONOTONIC);
            mono = (long long)t.tv_sec * 1000000000LL + t.tv_nsec - offset;
          }
        }
        int wasReady = c->ready;
        c->len += (size_t)r;
        if (scan(c, i, mono) != 0) {
          fprintf(stderr, "client %d: refused: %.200s\n", i, c->buf);
          return 1;
        }
        if (!wasReady && c->ready && ++readyCount == n) printf("ready\n");
      }
    }
    fflush(stdout);
  }
}
