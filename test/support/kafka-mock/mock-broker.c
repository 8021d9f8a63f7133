/*
 * Kafka-protocol test broker: librdkafka's mock cluster behind a tiny CLI.
 *
 *   mock-broker [--brokers N] [--topic NAME[:PARTITIONS]]...
 *
 * Creates N brokers listening on loopback TCP ports, creates the given topics
 * (the mock does not support CreateTopics from clients), prints the bootstrap
 * string as one line on stdout, then runs until stdin reaches EOF (the parent
 * died or closed the pipe) or SIGTERM/SIGINT arrives.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

static volatile sig_atomic_t stop_requested = 0;

static void on_signal(int sig) {
  (void)sig;
  stop_requested = 1;
}

static void usage(void) {
  fprintf(stderr, "usage: mock-broker [--brokers N] [--topic NAME[:PARTITIONS]]...\n");
  exit(2);
}

int main(int argc, char **argv) {
  int broker_count = 1;
  char errstr[512];

  /* First pass: the broker count, needed before the cluster exists. */
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--brokers") == 0 && i + 1 < argc) {
      broker_count = atoi(argv[++i]);
      if (broker_count < 1) usage();
    } else if (strcmp(argv[i], "--topic") == 0 && i + 1 < argc) {
      i++;
    } else {
      usage();
    }
  }

  /* The mock cluster hangs off a client handle; a producer that never produces is enough. */
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  if (rd_kafka_conf_set(conf, "log_level", "3", errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
    fprintf(stderr, "mock-broker: %s\n", errstr);
    return 1;
  }
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
  if (!rk) {
    fprintf(stderr, "mock-broker: rd_kafka_new failed: %s\n", errstr);
    return 1;
  }
  rd_kafka_mock_cluster_t *cluster = rd_kafka_mock_cluster_new(rk, broker_count);
  if (!cluster) {
    fprintf(stderr, "mock-broker: rd_kafka_mock_cluster_new failed\n");
    rd_kafka_destroy(rk);
    return 1;
  }

  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--topic") != 0) {
      if (strcmp(argv[i], "--brokers") == 0) i++;
      continue;
    }
    char *spec = argv[++i];
    int partitions = 1;
    char *colon = strrchr(spec, ':');
    if (colon) {
      *colon = '\0';
      partitions = atoi(colon + 1);
      if (partitions < 1) usage();
    }
    int replication = broker_count < 3 ? broker_count : 3;
    rd_kafka_resp_err_t err = rd_kafka_mock_topic_create(cluster, spec, partitions, replication);
    if (err) {
      fprintf(stderr, "mock-broker: creating topic %s failed: %s\n", spec, rd_kafka_err2str(err));
      rd_kafka_mock_cluster_destroy(cluster);
      rd_kafka_destroy(rk);
      return 1;
    }
  }

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);

  printf("%s\n", rd_kafka_mock_cluster_bootstraps(cluster));
  fflush(stdout);

  /* Run until stdin closes or a signal arrives; poll wakes up on EINTR for signals. */
  char buf[256];
  while (!stop_requested) {
    struct pollfd pfd = {.fd = STDIN_FILENO, .events = POLLIN};
    int ready = poll(&pfd, 1, 1000);
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (ready == 0) continue;
    ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
    if (n <= 0) break; /* EOF or error: the parent is gone */
  }

  rd_kafka_mock_cluster_destroy(cluster);
  rd_kafka_destroy(rk);
  return 0;
}
