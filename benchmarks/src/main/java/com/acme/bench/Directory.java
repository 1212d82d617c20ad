package com.acme.bench;

import com.acme.person.v1.Address;
import com.acme.person.v1.Person;
import java.util.Random;

/**
 * The people of the million-people benchmark: a directory of real-looking names (96 given
 * names × 85 family names, so a family name matches about 1 % of the directory and a full name
 * about 120 people in a million), ages 0–99, an address for half of them and up to three short
 * hobbies. Made from a seed, so every run stores the same directory.
 */
final class Directory {
  static final String[] GIVEN = ("Ada Alan Grace Edsger Barbara Donald Ken Dennis Bjarne Guido James Linus Margaret Tim Vint Radia "
      + "Frances John Niklaus Leslie Tony Butler Fran Hedy Katherine Dorothy Mary Annie Evelyn Jean Betty Kathleen Marlyn Ruth "
      + "Adele Ida Sophie Emmy Lise Rosalind Chien Maria Marie Lovisa Sven Olga Ivan Yuki Hiro Akira Mei Li Wei Chen Ravi Priya "
      + "Arjun Ananya Omar Fatima Aisha Yusuf Amara Kwame Nia Zara Diego Lucia Mateo Sofia Pablo Elena Luca Giulia Marco Chiara "
      + "Hans Greta Lars Ingrid Pieter Anouk Noah Emma Liam Olivia Elijah Ava Mia Ethan Isla Leo Nora Hugo Alma").split(" ");
  static final String[] FAMILY = ("Lovelace Turing Hopper Dijkstra Liskov Knuth Thompson Ritchie Stroustrup Rossum Gosling Torvalds "
      + "Hamilton Berners Cerf Perlman Allen Backus Wirth Lamport Hoare Lampson Spark Lamarr Johnson Vaughan Keller Easley Boyd "
      + "Jennings Holberton Antonelli Wescoff Teitelbaum Goldstine Noether Meitner Franklin Wu Curie Sklodowska Andersson Petrov "
      + "Tanaka Suzuki Yamamoto Zhang Wang Liu Patel Sharma Gupta Reddy Haddad Khan Okafor Mensah Diallo Garcia Martinez Rodriguez "
      + "Lopez Rossi Bianchi Ferrari Muller Schmidt Schneider Fischer Weber Jansen Visser Smit Bakker Nielsen Hansen Larsen Berg "
      + "Dahl Novak Horvat Kowalski Nowak Silva Santos Costa Pereira").split(" ");
  private static final String[] HOBBIES = "chess climbing cooking cycling gardening go knitting painting reading running sailing singing".split(" ");
  private static final String[] CITIES = "London Paris Berlin Zurich Oslo Tokyo Lagos Lima Austin Pune".split(" ");

  /**
   * The searches timed, from common to none: a family name (~1 % of the directory), a full name
   * (~0.01 %), a fragment across given and family name, one that matches nobody, and two
   * characters (no trigram: the embedded store checks names in order, a common text is found
   * at once).
   */
  static final String[] SEARCHES = {"lovelace", "ada lovelace", "ce hop", "zqxj", "an"};

  private final Random random;

  Directory(long seed) {
    random = new Random(seed);
  }

  Person next() {
    Person.Builder p = Person.newBuilder()
        .setName(GIVEN[random.nextInt(GIVEN.length)] + " " + FAMILY[random.nextInt(FAMILY.length)])
        .setAge(random.nextInt(100));
    if (random.nextBoolean()) {
      p.setAddress(Address.newBuilder().setCity(CITIES[random.nextInt(CITIES.length)]).setZipCode(Integer.toString(1000 + random.nextInt(9000))));
    }
    for (int h = random.nextInt(4); h > 0; h--) {
      p.addHobbies(HOBBIES[random.nextInt(HOBBIES.length)]);
    }
    return p.build();
  }
}
