package io.timeservice.store.memory.journal;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

import io.timeservice.model.ErrorCode;
import io.timeservice.model.ProblemException;
import io.timeservice.store.IdempotencyKey;
import io.timeservice.store.KeptAnswer;
import io.timeservice.store.memory.AnswerLog;

/**
 * The memory store's kept {@code Idempotency-Key} answers, in {@value #FILE_NAME} beside the clocks' journal in the
 * data directory (whose lock {@link JournalStore} holds): one record per kept answer, appended (and forced with
 * {@code fsync=always}) before the answer is sent, so a retry after a SIGKILL or a restart gets it again. A record is
 * {@code u32 length, u32 CRC32C, expiresAt, clock, caller, key, fingerprint, status u32, header count u32, (name,
 * value)*, body} (strings as u32 length + UTF-8, the body as u32 length + bytes). Recovery reads records up to the
 * first torn or damaged one (the tail of a write a crash cut) and cuts the file there; the file is rewritten with the
 * live answers only when it holds more than twice as many records as there are live answers (and at least
 * {@value #MIN_RECORDS_TO_COMPACT}).
 *
 * <p>It is a file of its own, not a record in the clocks' journal: the change a request made and the answer kept
 * for it are two writes (docs/API.md, "Idempotency-Key", states the window this leaves).
 */
public final class AnswerJournal implements AnswerLog, AutoCloseable {

    public static final String FILE_NAME = "idempotency.log";
    static final int MIN_RECORDS_TO_COMPACT = 1024;
    private static final int MAX_RECORD_BYTES = 64 * 1024 * 1024;

    private final Path file;
    private final boolean force;
    private FileChannel channel;
    private long records;

    private AnswerJournal(Path file, boolean force, FileChannel channel, long records) {
        this.file = file;
        this.force = force;
        this.channel = channel;
        this.records = records;
    }

    /** Opens (or creates) the file in {@code dir}, handing every record it holds to {@code recovered}. */
    public static AnswerJournal open(Path dir, FsyncPolicy fsync, Consumer<SavedAnswer> recovered)
            throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(FILE_NAME);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        long records = 0;
        long good = 0;
        ByteBuffer all = ByteBuffer.allocate((int) Math.min(channel.size(), Integer.MAX_VALUE - 8));
        while (all.hasRemaining() && channel.read(all, all.position()) >= 0) {
            // read it all
        }
        all.flip();
        while (all.remaining() >= 8) {
            int length = all.getInt();
            int crc = all.getInt();
            if (length < 0 || length > MAX_RECORD_BYTES || length > all.remaining()) {
                break;
            }
            byte[] body = new byte[length];
            all.get(body);
            CRC32C check = new CRC32C();
            check.update(body);
            if ((int) check.getValue() != crc) {
                break;
            }
            try {
                recovered.accept(decode(ByteBuffer.wrap(body)));
            } catch (BufferUnderflowException | IllegalArgumentException damaged) {
                break;
            }
            records++;
            good = all.position();
        }
        if (good < channel.size()) {
            channel.truncate(good);
            channel.force(true);
        }
        channel.position(good);
        return new AnswerJournal(file, fsync == FsyncPolicy.ALWAYS, channel, records);
    }

    @Override
    public synchronized void kept(SavedAnswer saved) {
        try {
            write(channel, saved);
            if (force) {
                channel.force(false);
            }
            records++;
        } catch (IOException e) {
            throw new ProblemException(ErrorCode.STORAGE_UNAVAILABLE, "the answer could not be kept for its "
                    + "Idempotency-Key: " + e.getMessage());
        }
    }

    @Override
    public synchronized boolean wantsCompaction(int live) {
        return records >= MIN_RECORDS_TO_COMPACT && records > 2L * live;
    }

    @Override
    public synchronized void compact(List<SavedAnswer> live) {
        Path next = file.resolveSibling(FILE_NAME + ".next");
        try {
            try (FileChannel out = FileChannel.open(next, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                for (SavedAnswer saved : live) {
                    write(out, saved);
                }
                out.force(true);
            }
            channel.close();
            Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            channel = FileChannel.open(file, StandardOpenOption.WRITE);
            channel.position(channel.size());
            records = live.size();
        } catch (IOException e) {
            throw new UncheckedIOException("could not rewrite " + file, e);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        channel.close();
    }

    private static void write(FileChannel to, SavedAnswer saved) throws IOException {
        byte[] body = encode(saved);
        CRC32C crc = new CRC32C();
        crc.update(body);
        ByteBuffer record = ByteBuffer.allocate(8 + body.length);
        record.putInt(body.length).putInt((int) crc.getValue()).put(body).flip();
        while (record.hasRemaining()) {
            to.write(record);
        }
    }

    static byte[] encode(SavedAnswer saved) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeLong(saved.expiresAt());
            writeString(out, saved.key().clock());
            writeString(out, saved.key().caller());
            writeString(out, saved.key().key());
            KeptAnswer answer = saved.answer();
            writeString(out, answer.fingerprint());
            out.writeInt(answer.status());
            out.writeInt(answer.headers().size());
            for (KeptAnswer.Header header : answer.headers()) {
                writeString(out, header.name());
                writeString(out, header.value());
            }
            byte[] body = answer.body();
            out.writeInt(body.length);
            out.write(body);
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
    }

    static SavedAnswer decode(ByteBuffer in) {
        long expiresAt = in.getLong();
        IdempotencyKey key = new IdempotencyKey(readString(in), readString(in), readString(in));
        String fingerprint = readString(in);
        int status = in.getInt();
        int headerCount = in.getInt();
        if (headerCount < 0 || headerCount > 64) {
            throw new IllegalArgumentException("header count " + headerCount);
        }
        List<KeptAnswer.Header> headers = new ArrayList<>(headerCount);
        for (int i = 0; i < headerCount; i++) {
            headers.add(new KeptAnswer.Header(readString(in), readString(in)));
        }
        byte[] body = new byte[length(in)];
        in.get(body);
        return new SavedAnswer(key, new KeptAnswer(fingerprint, status, headers, body), expiresAt);
    }

    private static void writeString(DataOutputStream out, String value) throws IOException {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static String readString(ByteBuffer in) {
        byte[] utf8 = new byte[length(in)];
        in.get(utf8);
        return new String(utf8, StandardCharsets.UTF_8);
    }

    private static int length(ByteBuffer in) {
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
            throw new IllegalArgumentException("length " + length);
        }
        return length;
    }
}
