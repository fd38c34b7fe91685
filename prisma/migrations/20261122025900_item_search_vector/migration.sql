-- Custom SQL (Prisma cannot express triggers): keeps items.search_vector, the weighted English
-- full-text document that relevance ranks on. Title and brand weigh most, then the category path,
-- then colours and the description. A stemmed query ("jackets") finds "jacket".
CREATE FUNCTION items_search_vector_refresh() RETURNS trigger AS $$
BEGIN
  NEW.search_vector :=
    setweight(to_tsvector('english', coalesce(NEW.title, '')), 'A') ||
    setweight(to_tsvector('english', coalesce(NEW.brand, '')), 'A') ||
    setweight(to_tsvector('english', coalesce((SELECT replace(path, ' > ', ' ') FROM categories WHERE id = NEW.category_id), '')), 'B') ||
    setweight(to_tsvector('english', array_to_string(NEW.colors, ' ')), 'C') ||
    setweight(to_tsvector('english', coalesce(NEW.description, '')), 'D');
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER items_search_vector_refresh
  BEFORE INSERT OR UPDATE OF title, brand, category_id, colors, description ON items
  FOR EACH ROW EXECUTE FUNCTION items_search_vector_refresh();
