package io.tbactors.sample.iot.e2e;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The device API benchmark's load generator: HTTP/1.1 keep-alive and MQTT 3.1.1 QoS 1 written straight onto
 * sockets, as load tools do, so that the client spends little of the 2 cores it shares with the server (Java's
 * {@code HttpClient} and Paho took about a quarter of the machine in the benchmark). The end-to-end tests use the
 * real clients; these speak only what the benchmark needs and fail loudly on anything else.
 */
final class BenchConnections {

    private BenchConnections() {
    }

    /** An HTTP/1.1 connection that posts one request at a time and reads each answer. */
    static final class Http implements AutoCloseable {

        private final int port;
        private Socket socket;
        private OutputStream out;
        private InputStream in;

        Http(int port) {
            this.port = port;
        }

        /**
         * @param path the request path
         * @param body the JSON body
         * @return the status and the Retry-After header's seconds (0 without one)
         * @throws IOException when the connection fails (the caller counts it and goes on; the next post reconnects)
         */
        Answer post(String path, byte[] body) throws IOException {
            if (socket == null) {
                socket = new Socket("localhost", port);
                socket.setTcpNoDelay(true);
                socket.setSoTimeout(60_000);
                out = new BufferedOutputStream(socket.getOutputStream(), 16 * 1024);
                in = new BufferedInputStream(socket.getInputStream(), 8 * 1024);
            }
            try {
                out.write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
                return readAnswer();
            } catch (IOException e) {
                close();
                throw e;
            }
        }

        private Answer readAnswer() throws IOException {
            String statusLine = line();
            if (!statusLine.startsWith("HTTP/1.1 ")) {
                throw new IOException("not an HTTP/1.1 answer: " + statusLine);
            }
            int status = Integer.parseInt(statusLine.substring(9, 12));
            long length = -1;
            int retryAfter = 0;
            boolean close = false;
            boolean chunked = false;
            for (String header = line(); !header.isEmpty(); header = line()) {
                int colon = header.indexOf(':');
                String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = header.substring(colon + 1).trim();
                switch (name) {
                    case "content-length" -> length = Long.parseLong(value);
                    case "retry-after" -> retryAfter = Integer.parseInt(value);
                    case "connection" -> close = "close".equalsIgnoreCase(value);
                    case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                    default -> {
                    }
                }
            }
            if (chunked) {
                for (int size = Integer.parseInt(line().trim(), 16); size > 0; size = Integer.parseInt(line().trim(), 16)) {
                    skip(size);
                    line();
                }
                line();
            } else if (length > 0) {
                skip(length);
            }
            if (close) {
                close();
            }
            return new Answer(status, retryAfter);
        }

        private String line() throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream(64);
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b < 0) {
                    throw new EOFException("connection closed by the server");
                }
                if (b != '\r') {
                    line.write(b);
                }
            }
            return line.toString(StandardCharsets.US_ASCII);
        }

        private void skip(long bytes) throws IOException {
            for (long left = bytes; left > 0; ) {
                long skipped = in.skip(left);
                if (skipped <= 0) {
                    if (in.read() < 0) {
                        throw new EOFException("connection closed inside a body");
                    }
                    skipped = 1;
                }
                left -= skipped;
            }
        }

        @Override
        public void close() {
            if (socket != null) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
                socket = null;
            }
        }
    }

    /**
     * @param status the HTTP status
     * @param retryAfterSeconds the Retry-After header, 0 when absent
     */
    record Answer(int status, int retryAfterSeconds) {
    }

    /**
     * An MQTT 3.1.1 connection (clean session, the token as user name) that publishes QoS 1 messages to one topic.
     * Publishing and reading PUBACKs are separate: {@link #publish} writes (buffered; {@link #flush} sends), and
     * {@link #awaitPuback} reads the next acknowledgment, which the server sends in publishing order.
     */
    static final class Mqtt implements AutoCloseable {

        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;
        private final byte[] topic;
        private int nextPacketId = 1;

        private Mqtt(Socket socket, String topic) throws IOException {
            this.socket = socket;
            this.out = new BufferedOutputStream(socket.getOutputStream(), 16 * 1024);
            this.in = new BufferedInputStream(socket.getInputStream(), 8 * 1024);
            this.topic = topic.getBytes(StandardCharsets.UTF_8);
        }

        /**
         * @param port the MQTT port
         * @param token the device's access token
         * @param topic where every message goes
         * @return the connection, accepted by the server
         * @throws IOException when the server refuses it or the connection fails
         */
        static Mqtt connect(int port, String token, String topic) throws IOException {
            Socket socket = new Socket("localhost", port);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(60_000);
            Mqtt mqtt = new Mqtt(socket, topic);
            ByteArrayOutputStream variable = new ByteArrayOutputStream();
            writeString(variable, "MQTT");
            variable.write(4); // protocol level 3.1.1
            variable.write(0x82); // user name, clean session
            variable.write(0);
            variable.write(60); // keep-alive seconds
            writeString(variable, "bench-" + Long.toHexString(System.nanoTime()));
            writeString(variable, token);
            mqtt.frame(0x10, variable.toByteArray());
            mqtt.out.flush();
            int type = mqtt.in.read();
            int length = mqtt.in.read();
            mqtt.in.read();
            int code = mqtt.in.read();
            if (type != 0x20 || length != 2 || code != 0) {
                mqtt.close();
                throw new IOException("CONNACK refused: type " + type + ", return code " + code);
            }
            return mqtt;
        }

        /**
         * @param payload the message
         * @return the packet id the PUBACK will carry
         * @throws IOException when writing fails
         */
        int publish(byte[] payload) throws IOException {
            int id = nextPacketId;
            nextPacketId = id == 0xFFFF ? 1 : id + 1;
            ByteArrayOutputStream variable = new ByteArrayOutputStream(topic.length + payload.length + 4);
            variable.write(topic.length >> 8);
            variable.write(topic.length & 0xFF);
            variable.write(topic);
            variable.write(id >> 8);
            variable.write(id & 0xFF);
            variable.write(payload);
            frame(0x32, variable.toByteArray());
            return id;
        }

        void flush() throws IOException {
            out.flush();
        }

        /**
         * @return the packet id of the next PUBACK
         * @throws IOException when the connection ends or something other than a PUBACK arrives
         */
        int awaitPuback() throws IOException {
            int type = in.read();
            int length = in.read();
            int high = in.read();
            int low = in.read();
            if (low < 0) {
                throw new EOFException("connection closed by the server");
            }
            if (type != 0x40 || length != 2) {
                throw new IOException("expected a PUBACK, got packet type " + type + " of length " + length);
            }
            return (high << 8) | low;
        }

        private void frame(int header, byte[] variable) throws IOException {
            out.write(header);
            int remaining = variable.length;
            do {
                int digit = remaining % 128;
                remaining /= 128;
                out.write(remaining > 0 ? digit | 0x80 : digit);
            } while (remaining > 0);
            out.write(variable);
        }

        private static void writeString(ByteArrayOutputStream out, String value) {
            byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
            out.write(bytes.length >> 8);
            out.write(bytes.length & 0xFF);
            out.write(bytes, 0, bytes.length);
        }

        /** Drops the connection without a DISCONNECT, at once, even while another thread is blocked writing. */
        void abort() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }

        @Override
        public void close() {
            try {
                out.write(0xE0); // DISCONNECT
                out.write(0);
                out.flush();
            } catch (IOException ignored) {
                // closing anyway
            }
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
