package io.timeservice.store.postgres;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The PostgreSQL store's SQL as the tests find it: its named statements (every {@code static final String} of the
 * package's classes that starts as SQL), found by reflection on the compiled classes, and the string literals of its
 * sources, where a statement written inline would be.
 */
final class StoreStatements {

    /** Text that starts as a statement. */
    private static final Pattern STATEMENT = Pattern.compile("(?is)^\\s*(SELECT|WITH|UPDATE|INSERT|DELETE)\\b.*");
    /** A text block, or a one-line string literal (escapes kept). */
    private static final Pattern LITERAL = Pattern.compile("\"\"\"(.*?)\"\"\"|\"((?:[^\"\\\\\\n]|\\\\.)*)\"",
            Pattern.DOTALL);
    private static final Path SOURCES = Path.of("src/main/java/io/timeservice/store/postgres");

    private static final Path MIGRATIONS = Path.of("src/main/resources/db/timeservice");
    private static final Pattern CREATE_TABLE =
            Pattern.compile("(?i)\\bCREATE\\s+TABLE\\s+(IF\\s+NOT\\s+EXISTS\\s+)?(\\w+)");

    private StoreStatements() {
    }

    /**
     * A statement on any table the store's migrations create: read from the migrations, so a table a new migration
     * adds is covered without anyone remembering to list it here.
     */
    static Pattern onTheStoresTables() throws IOException {
        List<String> tables = new ArrayList<>();
        try (Stream<Path> migrations = Files.list(MIGRATIONS)) {
            for (Path migration : migrations.filter(p -> p.toString().endsWith(".sql")).sorted().toList()) {
                Matcher create = CREATE_TABLE.matcher(Files.readString(migration));
                while (create.find()) {
                    tables.add(create.group(2).toLowerCase(java.util.Locale.ROOT));
                }
            }
        }
        return Pattern.compile("(?i)\\b(FROM|JOIN|UPDATE|INTO|USING)\\s+(ONLY\\s+)?(" + String.join("|", tables)
                + ")\\b");
    }

    /** Every named statement of the package whose text {@code tables} finds, as "Class.FIELD" to its text. */
    static Map<String, String> named(Pattern tables) throws IOException, URISyntaxException, ClassNotFoundException,
            IllegalAccessException {
        Path classes = Path.of(PostgresStore.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve(PostgresStore.class.getPackageName().replace('.', '/'));
        Map<String, String> statements = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> listed = Files.list(classes)) {
            files = listed.filter(p -> p.toString().endsWith(".class")).sorted().toList();
        }
        for (Path file : files) {
            String name = file.getFileName().toString().replaceFirst("\\.class$", "");
            Class<?> type = Class.forName(PostgresStore.class.getPackageName() + "." + name, false,
                    StoreStatements.class.getClassLoader());
            for (Field field : type.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (field.getType() == String.class && Modifier.isStatic(modifiers) && Modifier.isFinal(modifiers)) {
                    field.setAccessible(true);
                    String sql = (String) field.get(null);
                    if (sql != null && STATEMENT.matcher(sql).matches() && tables.matcher(sql).find()) {
                        statements.put(type.getSimpleName() + "." + field.getName(), sql);
                    }
                }
            }
        }
        return statements;
    }

    /**
     * The string literals of the package's sources that {@code tables} finds, as "File: text", but for the files
     * {@code allowed} accepts by name.
     */
    static List<String> literals(Pattern tables, java.util.function.Predicate<String> allowed) throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> sources = Files.list(SOURCES)) {
            for (Path source : sources.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                String file = source.getFileName().toString();
                if (allowed.test(file)) {
                    continue;
                }
                Matcher literal = LITERAL.matcher(Files.readString(source));
                while (literal.find()) {
                    String text = literal.group(1) != null ? literal.group(1) : literal.group(2);
                    if (tables.matcher(text).find()) {
                        found.add(file + ": " + text.strip());
                    }
                }
            }
        }
        return found;
    }
}
